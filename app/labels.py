"""Words a person reads that are computed from commands: history labels and short refusals.

No Qt here. :func:`history_label` is the one place the history panel (and anything else in the
app) turns a command line into a label; the grammar's own wording plugs in here.
"""

from __future__ import annotations

import re

HELP_HINT = "Help ▸ Commands (F1) lists what I understand."


def history_label(command: str | None) -> str:
    """The history panel's label for the version a command made ("original" for none).

    Uses ``agent.commands.history_label`` when the grammar provides it (words such as
    "Brighter +20"); until then the command line itself.
    """
    if not command:
        return "original"
    try:
        from agent import commands
    except ImportError:  # pragma: no cover - agent is always there in the app
        return command
    words = getattr(commands, "history_label", None)
    if words is None:
        return command
    try:
        return str(words(command)) or command
    except Exception:  # a label is never worth a crash: a command the labeller cannot read
        return command


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def short_refusal(reply: str, max_sentences: int = 2) -> str:
    """A refusal as one or two sentences plus where to find the grammar, never the grammar itself.

    The dialogue manager appends the whole command list when it does not understand; in the chat
    that buries the answer, so it is cut here and Help ▸ Commands shows it instead.
    """
    from agent.commands import usage

    text = reply
    grammar = usage()
    if grammar and grammar in text:
        text = text.replace(grammar, "")
    cut = text.find("I can search your photos")  # the capabilities paragraph before the grammar
    if cut > 0:
        text = text[:cut]
    text = " ".join(text.split())
    sentences = [s for s in _SENTENCE_END.split(text) if s]
    shortened = len(sentences) > max_sentences or text != " ".join(reply.split())
    text = " ".join(sentences[:max_sentences]).rstrip(":")
    if shortened and HELP_HINT not in text:
        text = f"{text} {HELP_HINT}".strip()
    return text
