"""The dialogue manager: one user utterance in, commands run on the document, one reply out.

The history is kept in CAISE's form (``user_text: ...``, ``assistant_text: ...``, command lines,
``image_load: N``) so that what the app records is CAISE data and the command model sees what it was
trained on. A request written as a command runs as it is; anything else goes to the command parser
(the learned model once it is installed). When the parser is unsure, the manager says so and lists
what it can do instead of executing a guess.

Commands that are not image edits (search, explain, describe) are handled by functions registered
in :attr:`DialogueManager.handlers`, so perception, the library and the explainers plug in here
without the manager knowing them. :attr:`DialogueManager.context` carries what the GUI knows that the
words do not: ``context["trace"]`` is the last mouse trace drawn over the image (Localized Narratives
form), ``context["compare_with"]`` a version id the user picked to compare against.

Grounded answers put what the GUI should draw in ``TurnResult.data``:

- ``data["overlays"]``: a list of ``{"kind": "box" | "trace", "target": "current" | "before",
  "box": [x1, y1, x2, y2]`` (pixels of that image) ``or "points": [[x, y], ...]`` (normalised 0..1),
  ``"color": "#rrggbb", "label": str}``;
- ``data["segments"]``: the reply as ``[{"text": str, "color": "#rrggbb" | None}, ...]``, whose
  concatenated texts equal the reply, so each phrase is shown in the colour of its box or trace.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from agent.commands import Command, CommandError, Redo, Undo, parse_command, usage
from agent.executor import crop_note, execute
from editor.document import Document, Version
from editor.models import ModelMissingError

CAPABILITIES = (
    "I can search your photos, rotate, flip, crop, change brightness or contrast, tint toward a "
    "colour (red, orange, green, blue, skyblue, purple, brown, yellow, pink), cut out the main "
    "subject, undo and redo, tell you what changed between versions and describe the picture (or "
    "the part you traced). You can also type a command directly, for example:\n" + usage()
)


@dataclass
class Prediction:
    """A parser's reading of the last request."""

    text: str | None  # a command line, or None when the parser has no reading
    confidence: float = 1.0
    alternatives: list[str] = field(default_factory=list)


class CommandParser(Protocol):
    """Turns the dialogue so far into the next command."""

    def predict(self, history: list[str], concepts: list[str]) -> Prediction: ...


class GrammarParser:
    """Accepts only requests written as commands; the fallback until a learned model is loaded."""

    def predict(self, history: list[str], concepts: list[str]) -> Prediction:
        last = history[-1].split(":", 1)[1].strip() if history else ""
        try:
            return Prediction(parse_command(last).format(), 1.0)
        except CommandError:
            return Prediction(None, 0.0)


@dataclass
class TurnResult:
    utterance: str
    reply: str
    command: Command | None = None
    version: Version | None = None  # the head after the turn, when the turn changed it
    ok: bool = True
    data: dict = field(default_factory=dict)

    def as_json(self) -> dict:
        return {
            "utterance": self.utterance,
            "command": self.command.format() if self.command else None,
            "reply": self.reply,
            "ok": self.ok,
            "version": self.version.id if self.version else None,
            **({"data": self.data} if self.data else {}),
        }


Handler = Callable[["DialogueManager", Command], TurnResult]

_REPLIES = {
    "rotate": "Rotated.",
    "adjust_color": "Tinted.",
    "adjust_attr": "Adjusted.",
    "image_cutout": "Cut out the main subject; the background is black.",
    "crop": "Cropped.",
    "flip": "Flipped.",
}


class DialogueManager:
    """Keeps one conversation about one document and runs its commands."""

    def __init__(self, document: Document | None = None, *, parser: CommandParser | None = None,
                 min_confidence: float = 0.5,
                 concepts: Callable[[Document | None], list[str]] | None = None):
        self.document = document
        self.parser: CommandParser = parser or GrammarParser()
        self.min_confidence = min_confidence
        self.concepts = concepts or (lambda doc: [])
        self.history: list[str] = ["assistant_text: How can I help you?"]
        self.handlers: dict[str, Handler] = {}
        self.context: dict = {}

    # -- the turn --------------------------------------------------------------------------------

    def handle(self, utterance: str) -> TurnResult:
        """Answer one request; never raises for bad input, the reply says what went wrong."""
        utterance = utterance.strip()
        if not utterance:
            return TurnResult(utterance, "Type a request, for example 'rotate 90'.", ok=False)
        # One transaction a turn: a crash keeps the whole turn (words, versions, head, reply) or none.
        store = self.document.store if self.document is not None else None
        with store.transaction() if store is not None else contextlib.nullcontext():
            self.history.append(f"user_text: {utterance}")
            command, reply = self._understand(utterance)
            if command is None:
                result = TurnResult(utterance, reply, ok=False)
            else:
                result = self.run(command, utterance=utterance)
            self.history.append(f"assistant_text: {result.reply}")
            self._log(result, utterance)
        return result

    def _understand(self, utterance: str) -> tuple[Command | None, str]:
        try:
            return parse_command(utterance), ""
        except CommandError as exc:
            literal_error = str(exc)
        pred = self.parser.predict(self.history, self.concepts(self.document))
        if pred.text is not None and pred.confidence >= self.min_confidence:
            try:
                return parse_command(pred.text), ""
            except CommandError as exc:
                return None, f"I read that as '{pred.text}', but {exc}."
        first = utterance.split()[0].lower()
        if first in {"rotate", "adjust_color", "adjust_attr", "crop", "flip", "search"}:
            return None, literal_error
        guess = f" My best guess was '{pred.text}', but I am not sure enough to run it." if pred.text else ""
        return None, f"Sorry, I did not understand that.{guess} {CAPABILITIES}"

    def run(self, command: Command, *, utterance: str | None = None) -> TurnResult:
        """Execute a command on the document and describe the outcome."""
        utterance = utterance if utterance is not None else command.format()
        if command.name in self.handlers:
            return self.handlers[command.name](self, command)
        if isinstance(command, (Undo, Redo)):
            return self._undo_redo(command, utterance)
        if not command.edits_image:
            return TurnResult(utterance, f"'{command.name}' is not available yet.", command, ok=False)
        if self.document is None:
            return TurnResult(utterance, "Open an image first, then ask me to edit it.", command, ok=False)
        before = self.document.pixels()
        try:
            pixels = execute(command, before)
        except (ValueError, ModelMissingError) as exc:
            return TurnResult(utterance, f"I could not do that: {exc}", command, ok=False)
        version = self.document.apply(command.format(), pixels)
        self.history.append(command.format())
        reply = _REPLIES.get(command.name, "Done.")
        note = crop_note(command, before.shape)  # a box beyond the image is said, not hidden
        return TurnResult(utterance, f"{reply} {note}" if note else reply, command, version)

    def _undo_redo(self, command: Command, utterance: str) -> TurnResult:
        if self.document is None:
            return TurnResult(utterance, "There is nothing to undo yet.", command, ok=False)
        is_undo = isinstance(command, Undo)
        version = self.document.undo() if is_undo else self.document.redo()
        if version is None:
            what = "undo" if is_undo else "redo"
            return TurnResult(utterance, f"There is nothing to {what}.", command, ok=False)
        self.history.append(command.format())
        verb = "Undid" if is_undo else "Redid"
        made_by = version.command or "the original"
        return TurnResult(utterance, f"{verb} it; now showing {made_by}.", command, version)

    def _log(self, result: TurnResult, typed: str | None = None) -> None:
        """Record the turn: the words as typed (a handler's result may carry its command line
        instead) and, beside the reply, every command line the turn ran."""
        if self.document is None:
            return
        store = self.document.store
        commands = getattr(result, "commands", None)  # a turn that ran several lists them all
        if not commands:
            commands = [result.command] if result.command else []
        store.add_turn(self.document.id, "user", typed if typed is not None else result.utterance)
        store.add_turn(
            self.document.id, "assistant", result.reply,
            commands=[c if isinstance(c, str) else c.format() for c in commands] or None,
            version_id=result.version.id if result.version else None,
            data=result.data or None,
        )
