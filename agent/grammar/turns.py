"""What one turn produces: a parser's reading of a request and the result of the turn (reply, commands,
new version). Handlers of every feature return :class:`TurnResult`; it holds no pixels."""

from __future__ import annotations

from dataclasses import dataclass, field

from agent.grammar.commands import Command
from editor.document import Version


@dataclass
class Prediction:
    """A parser's reading of the last request."""

    text: str | None  # a command line, or None when the parser has no reading
    confidence: float = 1.0
    alternatives: list[str] = field(default_factory=list)


@dataclass
class TurnResult:
    utterance: str
    reply: str
    command: Command | None = None
    version: Version | None = None  # the head after the turn, when the turn changed it
    ok: bool = True
    data: dict = field(default_factory=dict)
    commands: list[Command] = field(default_factory=list)  # every command the turn ran, in order

    def __post_init__(self) -> None:
        if self.command is not None and not self.commands:
            self.commands = [self.command]

    def as_json(self) -> dict:
        return {
            "utterance": self.utterance,
            "command": self.command.format() if self.command else None,
            "commands": [c.format() for c in self.commands],
            "reply": self.reply,
            "ok": self.ok,
            "version": self.version.id if self.version else None,
            **({"data": self.data} if self.data else {}),
        }

