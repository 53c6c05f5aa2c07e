"""Words a person reads that are computed from commands: history labels and short refusals.

No Qt here. :func:`history_label` is the one place the history panel (and anything else in the
app) turns a command line into a label; the grammar's own wording plugs in here.
"""

from __future__ import annotations

import re

HELP_HINT = "Help ▸ Commands (F1) lists what I understand."


def history_label(command: str | None) -> str:
    """The history panel's label for the version a command made: the grammar's words ("Brighter +20",
    :meth:`agent.grammar.commands.Command.label`), "original" for none, the line itself if it does not parse."""
    if not command:
        return "original"
    from agent.grammar.commands import CommandError, parse_command

    try:
        return parse_command(command).label()
    except CommandError:
        return command


def turn_label(commands) -> str:
    """The undo entry of a turn that ran ``commands``: their labels joined ("Brighter +10, Contrast +20")."""
    return ", ".join(c.label() for c in commands)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def short_refusal(reply: str, max_sentences: int = 2) -> str:
    """A refusal as one or two sentences plus where to find the grammar, never the grammar itself.

    The dialogue manager appends the whole command list when it does not understand; in the chat
    that buries the answer, so it is cut here and Help ▸ Commands shows it instead.
    """
    from agent.grammar.commands import usage

    text = reply
    grammar = usage()
    if grammar and grammar in text:
        text = text.replace(grammar, "")
    cut = text.find("I can search your photos")  # the capabilities paragraph before the grammar
    if cut > 0:
        text = text[:cut]
    text = " ".join(text.split())
    sentences = [s for s in _SENTENCE_END.split(text) if s]
    # "I did not understand" points to the list of what is understood; a specific refusal ("I can't
    # replace the sky...") already names the nearest thing Easel can do.
    shortened = len(sentences) > max_sentences or text != " ".join(reply.split()) or text.startswith("Sorry")
    text = " ".join(sentences[:max_sentences]).rstrip(":")
    if shortened and HELP_HINT not in text:
        text = f"{text} {HELP_HINT}".strip()
    return text
