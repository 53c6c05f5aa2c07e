"""What a follow-up refers to (:class:`Recent`: the edit on screen and its request) and what it asks
for (:class:`FollowUp`): the types the follow-up rules share (:mod:`agent.language.followups`,
:mod:`agent.language.going_back`, :mod:`agent.language.instead`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from agent.grammar.commands import Command, parse_command


@dataclass(frozen=True)
class Recent:
    """What a follow-up can refer to: the edit that made the picture on screen and every edit of the
    request it belonged to ("brighten it and add contrast" is one request of two edits)."""

    last: Command | None = None
    request: tuple[Command, ...] = ()
    said: str = ""  # what the assistant answered last ("I see 2 of them and removed the dog on the left")
    earlier: tuple[Command, ...] = ()  # every edit since the original, in order, ``last`` the last of them

    @classmethod
    def of(cls, *lines: str) -> Recent:
        """From command lines, the last request's (for examples and tests): ``Recent.of("rotate 270")``."""
        commands = tuple(parse_command(line) for line in lines)
        return cls(commands[-1] if commands else None, commands)


@dataclass
class FollowUp:
    commands: list[Command] = field(default_factory=list)
    # commands[:revise] replace the last ``revise`` edits (True: the last one), made again from the version
    # before them ("a bit less" after "make it moodier" revises its three edits)
    revise: int = 0
    dropped: int = 0  # ... and, before them, this many edits are taken out ("undo the blur" two edits back)
    topic: str | None = None  # what "it" is next ("what about the background?": the background)
    reply: str | None = None  # nothing to run: say this instead
    note: str = ""  # said after what runs ("which one did you mean?")
    proposal: list[Command] = field(default_factory=list)  # what "yes" runs after the reply's question
