"""The hub of a paired dialogue: the one place where a conversation's state lives and is recorded.

Both annotator windows (user and assistant, in this process or across the network) send it
*requests* (``chat``, ``command``, ``search``, ``load``, ``end``, ``new``) and draw what it sends back
(``state``, ``event``, ``image``, ``results``, ``error``, ``peer``). The hub checks each request,
executes commands at full resolution (:func:`agent.edits.run.execute` on a
:class:`~editor.document.Document`), records every event through the
:class:`~editor.annotations.Recorder` (one committed transaction each) and answers with the messages
to deliver. It has no Qt and no sockets, so the transports (:mod:`app.annotator.net`) stay thin and
tests drive it directly.

Messages are plain JSON-able dicts; images travel as PNG previews (base64) no larger than
:attr:`DialogueHub.preview` pixels, with the full-resolution size so a crop dragged on the preview
maps back to full-resolution pixels.
"""

from __future__ import annotations

import base64
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from agent.edits.run import execute
from agent.grammar.commands import Command, CommandError, Redo, Search, Undo, parse_command
from editor.annotations import AnnotationStore, Event, Recorder
from editor.document import Document
from editor.files import write_atomic
from editor.imageio import ImageFileError, read_image
from editor.models import ModelMissingError

ROLES = ("user", "assistant")
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff"}

# The request types a user is offered (four at random per dialogue), with a hint of how to ask.
REQUEST_TYPES = {
    "search": "Ask for a picture of something (\"find me a kids umbrella\")",
    "brightness": "Make it brighter or darker (\"a bit brighter please\")",
    "contrast": "Change the contrast (\"more contrast\")",
    "rotate": "Turn the picture (\"rotate it clockwise 90\")",
    "adjust_color": "Tint it toward a colour (\"make it more blue\")",
    "image_cutout": "Keep only the main subject (\"remove the background\")",
    "crop": "Keep only a part of it (\"crop to the dog\")",
    "flip": "Mirror it (\"flip it left to right\")",
}


def png_b64(pixels: np.ndarray, max_side: int) -> str:
    """A PNG of ``pixels`` (RGB/RGBA/grey, 8 or 16 bit), shrunk to ``max_side``, as base64 text."""
    arr = pixels
    if arr.dtype == np.uint16:
        arr = (arr >> 8).astype(np.uint8)
    h, w = arr.shape[:2]
    scale = min(1.0, max_side / max(h, w))
    if scale < 1.0:
        arr = cv2.resize(arr, (max(1, round(w * scale)), max(1, round(h * scale))),
                         interpolation=cv2.INTER_AREA)
    if arr.ndim == 3 and arr.shape[2] == 3:
        arr = cv2.cvtColor(arr, cv2.COLOR_RGB2BGR)
    elif arr.ndim == 3 and arr.shape[2] == 4:
        arr = cv2.cvtColor(arr, cv2.COLOR_RGBA2BGRA)
    ok, buf = cv2.imencode(".png", arr)
    if not ok:
        raise ValueError("could not encode a preview")
    return base64.b64encode(buf.tobytes()).decode("ascii")


class ImageLibrary:
    """The images the assistant searches and the user's seed images come from: one folder.

    Search matches the query words against each file's name and, when a ``describe`` function is
    given (pixels -> phrases such as "grey cat"), against what is detected in the picture. The
    phrases are computed once per file and kept in ``cache`` (a JSON file keyed by path, size and
    modification time), so a collection of camera files named ``IMG_1234.jpg`` is searchable too.
    """

    def __init__(self, folder: str | Path | None, *, describe=None, cache: str | Path | None = None):
        self.folder = Path(folder) if folder else None
        files = sorted(p for p in self.folder.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES) \
            if self.folder and self.folder.is_dir() else []
        self.files = {p.relative_to(self.folder).with_suffix("").as_posix(): p for p in files}
        self._thumbs: dict[str, str] = {}
        self.describe = describe
        self.cache_path = Path(cache) if cache else None
        self._phrases: dict[str, list[str]] | None = None

    def names(self) -> list[str]:
        return list(self.files)

    def _key(self, name: str) -> str:
        st = self.files[name].stat()
        return f"{self.files[name].resolve()}|{st.st_size}|{st.st_mtime_ns}"

    def phrases(self) -> dict[str, list[str]]:
        """What ``describe`` finds in each image (computed on first use, then cached)."""
        if self._phrases is not None:
            return self._phrases
        cache: dict[str, list[str]] = {}
        if self.cache_path is not None and self.cache_path.exists():
            try:
                cache = json.loads(self.cache_path.read_text())
            except (OSError, ValueError):
                cache = {}  # a damaged cache is rebuilt, never fatal
        out: dict[str, list[str]] = {}
        changed = False
        for name in self.files:
            key = self._key(name)
            if key not in cache and self.describe is not None:
                try:
                    cache[key] = list(self.describe(self.read(name).pixels))
                except (ImageFileError, ValueError, ModelMissingError):
                    cache[key] = []
                changed = True
            out[name] = cache.get(key, [])
        if changed and self.cache_path is not None:
            # the cache lives in the profile (our own file): written atomically, never half
            write_atomic(self.cache_path, json.dumps(cache), overwrite=True, checked=True)
        self._phrases = out
        return out

    def search(self, words: str, limit: int = 12) -> list[str]:
        """Names ranked by how many query words their file name or detected phrases share, then
        by name (CAISE's assistants searched a stock collection; ours is the folder)."""
        query = set(re.findall(r"[a-z0-9]+", words.lower()))
        phrases = self.phrases() if self.describe is not None else {}
        scored = []
        for name in self.files:
            have = set(re.findall(r"[a-z0-9]+", name.lower()))
            seen = set(re.findall(r"[a-z0-9]+", " ".join(phrases.get(name, [])).lower()))
            scored.append((-(2 * len(query & have) + len(query & seen)), name))
        scored.sort()
        return [name for _, name in scored[:limit]]

    def read(self, name: str):
        if name not in self.files:
            raise KeyError(f"no image {name!r} in {self.folder}")
        return read_image(self.files[name])

    def thumb(self, name: str, size: int = 160) -> str:
        if name not in self._thumbs:
            self._thumbs[name] = png_b64(self.read(name).pixels, size)
        return self._thumbs[name]


@dataclass
class Outgoing:
    """A message for one role ("user"/"assistant") or for everyone (``to=None``)."""

    to: str | None
    msg: dict


class DialogueHub:
    """One paired dialogue at a time, recorded as it happens; resumable after a crash."""

    def __init__(self, annotations: AnnotationStore, library: ImageLibrary, *, resume: bool = True,
                 rng: random.Random | None = None, n_seeds: int = 3, preview: int = 1024,
                 seeds: list[str] | None = None):
        self.ann = annotations
        self.library = library
        self.rng = rng or random.Random()
        self.n_seeds = n_seeds
        self.fixed_seeds = seeds  # the same seeds for several pairs make their dialogues comparable
        for name in seeds or []:
            if name not in library.files:
                raise ValueError(f"seed image {name!r} is not in {library.folder}")
        self.preview = preview
        self.annotators: dict[str, str] = {}  # role -> annotator name, for connected roles
        self.document: Document | None = None
        self.recorder: Recorder | None = None
        last = annotations.latest_open("dialogue") if resume else None
        if last is not None and not last.meta.get("format"):  # imported dialogues are never resumed
            self._resume(annotations.resume(last.id))
        else:
            self._start()

    # -- sessions --------------------------------------------------------------------------------

    def _start(self) -> None:
        if self.fixed_seeds:
            seeds = list(self.fixed_seeds)
        else:
            names = self.library.names()
            seeds = self.rng.sample(names, min(self.n_seeds, len(names)))
        suggestions = self.rng.sample(list(REQUEST_TYPES), 4)
        item = "seeds:" + "|".join(sorted(seeds)) if seeds else "free"
        self.recorder = self.ann.open_session("dialogue", item=item)
        self.recorder.record("seed", data={"seeds": seeds, "suggestions": suggestions})
        self.document = None

    def _resume(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self.document = None
        loads = recorder.events("image_load")
        if loads and loads[-1].data.get("document"):
            try:
                doc = Document.open(self.ann.store, loads[-1].data["document"])
                doc.checkout(loads[-1].data["version"])
                self.document = doc
            except (KeyError, FileNotFoundError):
                self.document = None

    @property
    def session_name(self) -> str:
        return self.recorder.session.name

    def _seed(self) -> dict:
        seeds = self.recorder.events("seed")
        return seeds[0].data if seeds else {"seeds": [], "suggestions": []}

    # -- connections -----------------------------------------------------------------------------

    def connect(self, role: str, annotator: str) -> list[Outgoing]:
        """A window says hello; it gets the whole state (so a restarted window resumes)."""
        if role not in ROLES:
            return [Outgoing(role, {"type": "error", "text": f"role must be user or assistant, got {role!r}"})]
        self.annotators[role] = annotator or role
        out = [Outgoing(role, self.state(role))]
        out.append(Outgoing(None, {"type": "peer", "roles": sorted(self.annotators)}))
        return out

    def disconnect(self, role: str) -> list[Outgoing]:
        self.annotators.pop(role, None)
        return [Outgoing(None, {"type": "peer", "roles": sorted(self.annotators)})]

    def state(self, role: str) -> dict:
        seed = self._seed()
        shown = [e for e in self.recorder.events() if e.kind in
                 ("user_text", "assistant_text", "command", "image_load", "end")]
        msg = {
            "type": "state", "role": role, "session": self.recorder.session_id,
            "name": self.session_name, "events": [self._event_msg(e)["event"] for e in shown],
            "image": self._image_msg() if self.document is not None else None,
            "ended": self.recorder.session.status == "done",
        }
        if role == "user":  # only the user sees what to ask for
            msg["seeds"] = [{"name": n, "png": self.library.thumb(n, 320)} for n in seed["seeds"]
                            if n in self.library.files]
            msg["suggestions"] = [{"type": t, "hint": REQUEST_TYPES.get(t, t)} for t in seed["suggestions"]]
        return msg

    # -- requests --------------------------------------------------------------------------------

    def handle(self, role: str, msg: dict) -> list[Outgoing]:
        """Answer one request from a connected role; bad requests get an ``error`` back, never raise."""
        kind = msg.get("type")
        try:
            if role not in self.annotators:
                return [Outgoing(role, {"type": "error", "text": "say hello first"})]
            if kind == "new":
                return self._new()
            if self.recorder.session.status == "done":
                return [Outgoing(role, {"type": "error", "text": "this dialogue has ended; start a new one"})]
            if kind == "chat":
                return self._chat(role, msg)
            if kind == "end":
                ev = self.recorder.record("end", role=role, annotator=self.annotators[role])
                return [self._event_out(ev)]
            if role != "assistant" and kind in ("command", "search", "load"):
                return [Outgoing(role, {"type": "error", "text": "only the assistant runs commands"})]
            if kind == "command":
                return self._command(str(msg.get("text", "")))
            if kind == "search":
                return self._search(str(msg.get("words", "")))
            if kind == "load":
                return self._load(str(msg.get("name", "")))
        except (ValueError, TypeError, KeyError) as exc:
            return [Outgoing(role, {"type": "error", "text": str(exc)})]
        return [Outgoing(role, {"type": "error", "text": f"unknown request {kind!r}"})]

    def _new(self) -> list[Outgoing]:
        if self.recorder.session.status != "done":
            self.recorder.record("end", data={"reason": "new dialogue"})
        self._start()
        return [Outgoing(role, self.state(role)) for role in self.annotators]

    def _chat(self, role: str, msg: dict) -> list[Outgoing]:
        text = " ".join(str(msg.get("text", "")).split())
        if not text:
            return [Outgoing(role, {"type": "error", "text": "empty message"})]
        ev = self.recorder.record(f"{role}_text", text=text, role=role, annotator=self.annotators[role])
        return [self._event_out(ev)]

    def _record_command(self, command: Command) -> Outgoing:
        ev = self.recorder.record("command", text=command.format(), role="assistant",
                                  annotator=self.annotators["assistant"], data={"ok": True})
        return self._event_out(ev)

    def _command(self, text: str) -> list[Outgoing]:
        try:
            command = parse_command(text)
        except CommandError as exc:
            return [Outgoing("assistant", {"type": "error", "text": str(exc)})]
        if isinstance(command, Search):
            return self._search(command.words)
        if self.document is None:
            return [Outgoing("assistant", {"type": "error", "text": "load an image first (search for one)"})]
        if isinstance(command, (Undo, Redo)):
            moved = self.document.undo() if isinstance(command, Undo) else self.document.redo()
            if moved is None:
                return [Outgoing("assistant", {"type": "error", "text": f"nothing to {command.name}"})]
        elif command.edits_image:
            try:
                pixels = execute(command, self.document.pixels())
            except (ValueError, ModelMissingError) as exc:
                return [Outgoing("assistant", {"type": "error", "text": f"{command.format()}: {exc}"})]
            self.document.apply(command.format(), pixels)
        else:
            return [Outgoing("assistant", {"type": "error",
                                           "text": f"'{command.name}' is not an assistant tool"})]
        return [self._record_command(command), *self._image_load()]

    def _search(self, words: str) -> list[Outgoing]:
        command = Search(words=" ".join(words.split()))  # raises CommandError (ValueError) if empty
        out = [self._record_command(command)]
        names = self.library.search(command.words)
        out.append(Outgoing("assistant", {"type": "results", "words": command.words, "items": [
            {"name": n, "png": self.library.thumb(n)} for n in names]}))
        return out

    def _load(self, name: str) -> list[Outgoing]:
        try:
            img = self.library.read(name)
        except (KeyError, ImageFileError) as exc:
            return [Outgoing("assistant", {"type": "error", "text": str(exc)})]
        self.document = Document.create(self.ann.store, img.pixels, title=name,
                                        source_path=str(self.library.files[name]), meta=img.meta)
        return self._image_load(source=name)

    def _image_load(self, source: str | None = None) -> list[Outgoing]:
        n = len(self.recorder.events("image_load")) + 1
        image_id = f"{self.session_name}_image_{n}"
        head = self.document.head
        data = {"document": self.document.id, "version": head.id, "pixels": head.pixels}
        if source:
            data["source"] = source
        ev = self.recorder.record("image_load", text=image_id, role="assistant",
                                  annotator=self.annotators.get("assistant"), data=data)
        return [self._event_out(ev), Outgoing(None, self._image_msg())]

    # -- messages --------------------------------------------------------------------------------

    def _image_msg(self) -> dict:
        pixels = self.document.pixels()
        loads = self.recorder.events("image_load")
        return {"type": "image", "id": loads[-1].text if loads else None,
                "size": [int(pixels.shape[1]), int(pixels.shape[0])],
                "png": png_b64(pixels, self.preview)}

    @staticmethod
    def _event_msg(ev: Event) -> dict:
        return {"type": "event", "event": {"seq": ev.seq, "kind": ev.kind, "role": ev.role,
                                           "annotator": ev.annotator, "text": ev.text}}

    def _event_out(self, ev: Event) -> Outgoing:
        return Outgoing(None, self._event_msg(ev))
