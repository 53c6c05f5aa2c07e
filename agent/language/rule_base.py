"""What every rule of the request reader shares: the refusal a rule raises, the region a clause
names (or the question that asks the person to point at it), and the words of the things Easel
can look for. :mod:`agent.language.rules` holds the registry; :mod:`agent.language.light_rules` and
:mod:`agent.language.photo_rules` hold rules of their kind.
"""

from __future__ import annotations

import functools
import re

from agent.grammar.commands import Command
from agent.language.scope import Unfindable, region_of
from agent.language.words import COLOUR_WORDS


class Refusal(Exception):
    """A clause Easel cannot serve; the message says so and names the nearest thing it can do."""

    def __init__(self, message: str, proposal: list[Command] | None = None, *, asks: bool = False):
        super().__init__(message)
        self.proposal = proposal or []
        self.asks = asks  # a question back about what was meant ("Should I brighten it?"), not a failure


RuleResult = list[Command] | None
_COLOURS = "|".join(sorted(COLOUR_WORDS, key=len, reverse=True))  # "her pink clothes": "this"
TONAL_LIFT = 25  # "lift the shadows": brightness in a tonal range, the most that keeps the order of tones


def region_or_ask(c: str, own_words: set[str] | frozenset[str] = frozenset(), *, example: str = "") -> str:
    """Where the clause's edit applies (a command's region words, "" for the whole picture); a part
    Easel cannot find on its own gets a Refusal that asks the person to point at it, with ``example``
    as what to say then (else the clause with "this" for the part)."""
    emphasis = re.search(r"\b(?:especially|particularly|mostly|mainly|above all)\b", c)
    if emphasis and re.search(r"\b(?:the|this|my) (?:whole )?(?:image|photo|picture|pic|shot)\b", c[:emphasis.start()]):
        return ""  # "lighten up the image, especially around the face": the image, as asked first
    try:
        return region_of(c, own_words) or ""
    except Unfindable as exc:
        part = exc.part
        if re.search(rf"\b(?:especially|particularly|mostly|mainly|above all)\b(?:\s+\w+){{0,3}}\s+(?:\w+'s )?"
                     rf"{re.escape(part)}\b", c):
            return ""  # "lighten up the image, especially around the face": the image, as asked first
        if not example and exc.said and exc.said in c:
            example = c.replace(exc.said, "this", 1)  # "make the person on the left's shirt red": "make this red"
        if not example:
            pointed = re.sub(rf"\b(?:(?:the|his|her|their|my|its|our|your|this|that) )?(?:\w+'s )?(?:(?:{_COLOURS}) )?"
                             rf"{re.escape(part)}\b"
                             r"(?: of (?:the|his|her|their|its|my) \w+(?: (?:on|in|at) the (?:far )?(?:left|right|top|bottom|"
                             r"middle|cent(?:re|er)|front|back|background|foreground))?)?", "this", c, count=1)  # "the eyes of the owl"
            example = pointed if pointed != c and len(pointed) <= 60 else "brighten this"
            example = f"make {example}" if example.startswith("this ") else example  # "hair darker": "make this darker"
        them = "them" if part.endswith("s") and not part.endswith(("ss", "us")) else "it"  # the trees, the grass
        raise Refusal(f"I can't find the {part} on my own. Draw around {them} with the trace tool (T) or a box (B) "
                      f"and say “{example}”.") from None


@functools.cache
def detectable() -> frozenset[str]:
    """Words of things Easel can look for: one list, the detector's and the caption's
    (:func:`agent.perception.things.thing_words`), read on first use so that reading requests
    does not load OpenCV's colour tables at start-up."""
    from agent.perception.things import thing_words

    return thing_words()
