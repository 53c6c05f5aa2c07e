"""Which one, corrected: "no, the one on the left" after "remove the chicken" took the one on the right.

An edit made in one of several things of a kind (a removal, or an edit in a part: "make the giraffe
brighter") is made again in the one the person means, from the version before it, and the wrong
one's change is taken back (a revision: one undo brings the first try back). Said as a correction
("no", "not that one", "wrong one", "I meant", "actually"), then which one: by place ("the one on the
left", "the left one", "the chicken on the left"), by size ("the bigger one"), "the other one" (when
two were seen and the reply said which one it took), another thing ("no, the dog"), a part found by
name ("no, the grass" after "brighten the sky") or the whole picture. Said as more ("and the one on
the left too") after a removal, the other one is removed as well.

It was: "no, the one on the left" after a removal was not understood, and after "make the giraffe
brighter" it brightened the left one as well, leaving the wrong one changed.
"""

from __future__ import annotations

import dataclasses
import re

from agent.grammar.commands import REGIONAL, Command, Remove
from agent.language.followup_words import TOOK, other_of_two, side_phrase, tidy, without_place
from agent.language.recent import FollowUp, Recent
from editor.masks import FOUND_NAMES, GEOMETRIC_NAMES

_PLACE = r"(?:on|at|in) the (?:far )?(?:left|right|top|bottom|middle|centre|center)(?: (?:left|right))?"
_SIDE = r"(?:far |top |bottom )?(?:left|right)|top|bottom|middle"
_SIZE = r"big|bigger|biggest|large|larger|largest|small|smaller|smallest|little|tiny"
# the words that make it a correction, not more of the same ("and the one on the left too")
_CORRECTING = re.compile(
    r"^(?:(?:no+|nope|nah|actually|oops|sorry|wait|hmm+|not (?:that|this) one|(?:the )?wrong one|"
    r"(?:that|it)(?:'s| is| was) (?:not (?:it|that one|the one|the right one)|the wrong one)|"
    r"i (?:meant|mean|said|wanted)|meant)\b[\s,.!;:-]*)+")
_NEGATING = re.compile(r"\b(?:no+|nope|nah|not|wrong|meant|mean|said|wanted|actually|oops|sorry)\b")  # ("hmm," alone: no)
_TAIL = re.compile(rf"(?:[\s,]+(?:instead|not the (?:one|other one|[a-z]+)(?: {_PLACE})?|not that one|please))+$")
_MORE = re.compile(r"^(?:(?:and|also|now|then|ok|okay)\b[\s,]*)*(?:(?:remove|erase|delete) )?(?P<ref>.+?)"
                   r"(?:\s+(?:too|as well|also))+$")
_REFERENCE = re.compile(
    rf"the (?:one (?P<place>{_PLACE})|(?P<side>{_SIDE}) one|(?P<size>{_SIZE}) one|(?P<other>other)(?: one)?"
    rf"|(?P<thing>[a-z]+(?: [a-z]+)?)(?: (?P<at>{_PLACE}))?)")
_WHOLE = re.compile(r"the (?:whole |entire )?(?:picture|photo|image|pic|thing)")


def _target(last: Command | None) -> str:
    """The thing or found part the last edit was made in ("the chicken", "the giraffe on the left",
    "sky"), or "" when it was made in no such thing (the whole picture, a side, a selection)."""
    if isinstance(last, Remove):
        words = last.words
    elif isinstance(last, REGIONAL):
        words = getattr(last, "region", "") or ""
    else:
        return ""
    if re.sub(rf" {_PLACE}$", "", words) in FOUND_NAMES:  # "no, the grass" after "brighten the sky"
        return words
    return words if words.startswith("the ") else ""


def _meant(ref: re.Match, thing: str, said: str) -> str | FollowUp | None:
    """The words for the one meant ("the chicken on the left"), a reply asking which, or None when
    the words are not a reference to one thing."""
    kind = re.sub(rf"^the (?:{_SIZE}) ", "the ", without_place(thing))  # "the chicken"
    if ref.group("place") or ref.group("side"):
        return f"{kind} {ref.group('place') or side_phrase(ref.group('side'))}"
    if not kind.startswith("the ") and (ref.group("size") or ref.group("other")):
        return None  # (a part found by name: the sky has no bigger one)
    if ref.group("size"):  # "the bigger one": as the objects' finder reads "the bigger chicken"
        return f"the {ref.group('size')} {kind[4:]}"
    if ref.group("other"):
        placed = (re.findall(_PLACE, thing) or [""])[-1]
        other = other_of_two(said, placed)
        if other:
            return f"{kind} {other}"
        took = TOOK.search(said)  # (the example is the side opposite the one taken)
        done = took.group("where") if took else placed
        return FollowUp([], reply=f"Which {kind[4:]} do you mean? Say where it is, for example “no, the one on the "
                                  f"{'left' if done.endswith('right') else 'right'}”, or draw around it with the trace "
                                  "tool (T).")
    named = ref.group("thing")
    if re.fullmatch(_SIDE, named):  # "no, the left"
        return f"{kind} {side_phrase(named)}"
    if named in ("one", "same", "same one", "wrong one") or named.startswith(("one ", "same ")):
        return None  # "no, the same one": not which
    return f"the {named}" + (f" {ref.group('at')}" if ref.group("at") else "")


def read_instead(text: str, recent: Recent) -> FollowUp | None:
    """``text`` read as a correction of which thing the last edit was made in, or None.

    >>> read_instead("no, the one on the left", Recent.of("remove the chicken")).commands
    [Remove(words='the chicken on the left')]
    >>> read_instead("the one on the left", Recent.of("remove the chicken")) is None
    True
    >>> read_instead("no, the grass", Recent.of("adjust_attr brightness 20 in sky")).commands[0].format()
    'adjust_attr brightness 20 in greenery'
    >>> read_instead("no, the top left", Recent.of("adjust_attr brightness -20 in top right")).commands[0].format()
    'adjust_attr brightness -20 in top left'
    """
    words = " ".join(text.lower().split())
    lead = _CORRECTING.match(words)
    if isinstance(recent.last, REGIONAL) and recent.last.region in GEOMETRIC_NAMES and len(recent.request) == 1:
        return _other_place(words, lead, recent.last)
    thing = _target(recent.last)
    if not thing or len(recent.request) > 1:
        return None
    if lead is None or not _NEGATING.search(lead.group(0)):
        more = _MORE.fullmatch(tidy(words)) if isinstance(recent.last, Remove) else None
        ref = _REFERENCE.fullmatch(more.group("ref")) if more else None
        if ref is None or not (ref.group("place") or ref.group("side") or ref.group("at")):
            return None  # ("and the dog too" is a request of its own; the edits' "too" is _elsewhere's)
        meant = _meant(ref, thing, recent.said)
        return FollowUp([Remove(meant)]) if isinstance(meant, str) and meant != thing else None
    rest = _TAIL.sub("", tidy(words[lead.end():]))
    ref = _REFERENCE.fullmatch(rest)
    if ref is None:
        return None
    meant = _meant(ref, thing, recent.said)
    if meant is None or isinstance(meant, FollowUp):
        return meant
    if meant == thing:
        return None
    if isinstance(recent.last, Remove):
        return None if _WHOLE.fullmatch(meant) else FollowUp([Remove(meant)], revise=True)
    from agent.language.scope import Unfindable, region_of

    if _WHOLE.fullmatch(meant):  # "no, the whole picture" after "make the sky bluer"
        return FollowUp([dataclasses.replace(recent.last, region="")], revise=True)
    try:
        region = region_of(meant)
    except Unfindable:
        return None
    return FollowUp([dataclasses.replace(recent.last, region=region)], revise=True) if region else None


def _other_place(words: str, lead: re.Match | None, last: Command) -> FollowUp | None:
    """"no, the top left" after "make the top right corner darker": the edit made in that part instead
    (it was not understood); None unless a correction names another side, half, corner or the centre."""
    from agent.language.scope import Unfindable, region_of

    if lead is None or not _NEGATING.search(lead.group(0)):
        return None
    try:
        region = region_of(_TAIL.sub("", tidy(words[lead.end():])))
    except Unfindable:
        return None
    if region not in GEOMETRIC_NAMES or region == last.region:
        return None
    return FollowUp([dataclasses.replace(last, region=region)], revise=True)
