"""The dialogue manager: one user utterance in, commands run on the document, one reply out.

The history is kept in CAISE's form (``user_text: ...``, ``assistant_text: ...``, command lines,
``image_load: N``) so that what the app records is CAISE data and the command model sees what it was
trained on. A request written as a command runs as it is; anything else goes to the command parser
(the learned model once it is installed). When the parser is unsure, the manager says so and lists
what it can do instead of executing a guess.

The manager owns the dialogue protocol: every turn, typed (:meth:`DialogueManager.handle`) or given
with a gesture in the window (:meth:`DialogueManager.gesture`, Edit ▸ Crop to Selection), is
written to the history and the store the same way, in one transaction. Commands that are not image
edits (search, explain, describe) are handled by functions registered in
:attr:`DialogueManager.handlers`, so perception, the library and the explainers plug in here without
the manager knowing them. :attr:`DialogueManager.context` (a :class:`TurnContext`) carries what the
GUI knows that the words do not (the last mouse trace, the version picked to compare against, the
phrasing of explanations, what undo means in the window's undo stack) and what one turn leaves for
the next. :mod:`agent.dialogue.session` keeps the rest of a window's conversation state, without Qt.

Grounded answers put what the GUI should draw in ``TurnResult.data``:

- ``data["overlays"]``: a list of ``{"kind": "box" | "trace" | "region", "target": "current" | "before",
  "box": [x1, y1, x2, y2]`` (pixels of that image) ``or "points": [[x, y], ...]`` (normalised 0..1)
  ``or "polygons": [[[x, y], ...], ...]`` (normalised outlines; ``"fill": False`` draws only the
  outline), ``"color": "#rrggbb", "label": str}``;
- ``data["segments"]``: the reply as ``[{"text": str, "color": "#rrggbb" | None}, ...]``, whose
  concatenated texts equal the reply, so each phrase is shown in the colour of its box or trace.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np

from agent.dialogue import revising
from agent.dialogue.revising import caise_path, point_at
from agent.dialogue.topics import (
    IT,
    ONE,
    PARENT,
    REST,
    about_topic,
    kind_of_young,
    name_said,
    named_as,
    names_thing,
    topic_noun,
)
from agent.edits.regions import RegionNotFound
from agent.edits.run import quantized, reply_for, selection_box, uses_selection
from agent.edits.run import run as run_edit
from agent.edits.selection import Selection
from agent.grammar.commands import (
    REGIONAL,
    Background,
    Command,
    CommandError,
    CropTo,
    Describe,
    ImageCutout,
    Redo,
    Remove,
    Rotate,
    Search,
    Switch,
    Undo,
    parse_command,
    version_label,
    with_selection_ref,
)
from agent.grammar.turns import Prediction, TurnResult  # SPLIT
from agent.language import reader as requests
from agent.language.followup_words import PLACE_WORDS
from agent.language.recent import Recent
from agent.language.search_steps import read_switch, search_step
from agent.perception.names_kept import names_from, names_given, unmoved_from
from agent.perception.vocabulary import plural, with_article
from editor.document import Document, Version
from editor.masks import FOUND_NAMES
from editor.models import ModelMissingError

CAPABILITIES = (
    "I can search your photos, edit the picture (light, colours, sharpness, black and white, remove objects, "
    "replace or blur the background, crop, rotate, flip), undo and redo, tell you what changed and describe "
    "it. Help > Commands lists every command."
)




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




Handler = Callable[["DialogueManager", Command], TurnResult]


class TurnStopped(Exception):
    """The person stopped the turn before it ended: nothing of it is kept."""


@dataclass(frozen=True)
class UndoStep:
    """What "undo" (or "redo") will do in the app's undo stack: the entry's name, and the document
    and version it leads to; ``checkout``: no stack entry, push a checkout (a reopened conversation)."""

    text: str
    document: Document | None
    version_id: str | None
    checkout: bool = False

    def version(self) -> Version | None:
        doc, vid = self.document, self.version_id
        return doc.versions.get(vid) if doc is not None and vid else None


@dataclass
class TurnContext:
    """What the GUI knows that the words do not, and what one turn leaves for the next."""

    trace: list | None = None  # the last mouse trace drawn over the image (Localized Narratives form)
    # What the person drew for the next request that says "this", "here", "it" (agent.edits.selection);
    # a turn that used it lets it go.
    selection: Selection | None = None
    compare_with: str | None = None  # a version id the person picked to compare against
    explain_phrasing: str | None = None  # "speaker": explanations open with the learned speaker's sentence
    # The app's undo stack decides what "undo" and "redo" mean ({"undo": UndoStep, ...}, planned
    # before the turn and applied when it returns); None: the document's own undo and redo.
    undo_plan: dict[str, UndoStep] | None = None
    last_kind: str | None = None  # the last command that was not an edit ("explain"): reads "where?"
    proposal: list[Command] | None = None  # what the last question proposed; "yes" runs it
    # What the last turn's question found ("the horse" after "where is the horse?"): the next
    # request's "it" ("make it brighter") is that thing, not the whole photo
    topic: str | None = None
    topic_count: int | None = None  # how many of it the question found, when it counted them
    # The names the person gave things ("no, it's a duck"), by the document's first version's id:
    # (box, word) pairs, which perception then calls so (agent.perception.names_kept.names_given)
    given: dict[str, list] = field(default_factory=dict)
    explain: dict | None = None  # the last comparison (agent.explain.chat), for "where?" and "how much?"
    explain_cache: dict = field(default_factory=dict)  # (before id, after id) -> Explanation
    # The head before and after the last turn that made versions ("brighten it and add contrast"
    # makes two): "what changed?" and the Before/After pane compare across the whole request.
    last_edit: tuple[str, str] | None = None
    # Where "undo" goes from a version when it is not its parent, without the app's undo stack (which
    # does the same in the window): a revised edit ("too much" after contrast +40) -> its first try;
    # the original, after "go back to the original" -> the picture before it.
    undo_to: dict[str, str] = field(default_factory=dict)
    # Where "undo" goes from the last version of a request that made several (one request, one undo step)
    undo_request: dict[str, str] = field(default_factory=dict)
    confirmed: bool = False  # this turn runs what the person just agreed to ("yes" to a proposal)
    chat: bool = False  # this turn's reply answers small talk ("thanks"): nothing ran, and nothing failed
    weak_search: str | None = None  # the search words whose weak best match was offered, not opened
    # The last search whose matches "another one", "the next", "the second one" step through (until an edit)
    last_search: Search | None = None
    # The last turn's edit that was refused because its thing was not found, or not which one ("remove
    # the person on the right" with one further right): "no, the one on the far right" makes it there
    unfound: Command | None = None


GREETING = "assistant_text: How can I help you?"
# A request that asks for a photo in so many words is a search; the model only picks its words, and
# a wrong photo is one Ctrl+Z away. Below this the reply says it did not understand.
SEARCH_CONFIDENCE = 0.2


def history_from_turns(turns: list[dict]) -> list[str]:
    """The dialogue history in CAISE form from stored turns (a reopened conversation): the typed
    words, every command line a turn ran that made a version, and the replies."""
    history = [GREETING]
    for t in turns:
        if t["role"] == "user":
            history.append(f"user_text: {t['text']}")
        else:
            if t.get("version_id"):  # every command the turn ran (schema 1 rows: the one)
                history.extend(t.get("commands") or ([t["command"]] if t.get("command") else []))
            history.append(f"assistant_text: {t['text']}")
    return history


def _last_edit(document: Document | None, turns: list[dict]) -> tuple[str, str] | None:
    """The head before and after the last stored turn that made versions, when the head is still its
    result (a reopened conversation: "what changed?" then spans the whole request, as before)."""
    last = next((t for t in reversed(turns) if t["role"] == "assistant" and t.get("version_id")), None)
    if document is None or last is None or last["version_id"] != document.head.id:
        return None
    try:
        if not all(parse_command(c).edits_image for c in last.get("commands") or []):
            return None
    except CommandError:
        return None
    before = document.head
    for _ in last.get("commands") or []:
        before = document.parent(before.id) or before
    return (before.id, document.head.id) if before.id != document.head.id else None


def _moves_nothing(command: Command) -> bool:
    """Whether ``command`` leaves every thing where it was and in the picture: light and colour edits,
    and a background blur (Kleiber's nuthatch, "blur the background", then "is there a bird?": "I don't
    see a bird", the detector losing it on the blurred picture)."""
    return isinstance(command, REGIONAL) or (isinstance(command, Background) and command.mode == "blur")


LOOK_LIKE = re.compile(r"\b(?:look|feel|seem) like\b")  # a look asked of "it": the picture's
# a part the last edit found by name, which "it" then is ("the sky is too bright", "darken it")
_FOUND_PART = re.compile(rf"(?:{'|'.join(FOUND_NAMES)}|background)(?: (?:on|at|in) the (?:left|right|top|bottom))?")


# a thing removed that "is it gone?" can be about: "the joey", "the person on the far left" (it was "I can't
# answer that": only one or two words were)
_REMOVED_THING = re.compile(rf"the [a-z]+(?: [a-z]+)?(?: {PLACE_WORDS})?")
# "crop to it", "zoom in on it": the thing "it" is, where "crop it" is the picture
_TO_IT = re.compile(r"\b(?:to|on|around|in on|onto) (?:it|him|her|them)\b")


class DialogueManager:
    """Keeps one conversation about one document and runs its commands."""

    def __init__(self, document: Document | None = None, *, parser: CommandParser | None = None,
                 min_confidence: float = 0.5,
                 concepts: Callable[[Document | None], list[str]] | None = None):
        self.document = document
        self.parser: CommandParser = parser or GrammarParser()
        self.min_confidence = min_confidence
        self.concepts = concepts or (lambda doc: [])
        self.history: list[str] = [GREETING]
        self.handlers: dict[str, Handler] = {}
        # Another way to make one command's pixels (the app cuts out in a helper process); the turn
        # around it (versions, history, replies, the transaction) stays this manager's.
        self.executors: dict[str, Callable[[np.ndarray], np.ndarray]] = {}
        self.context = TurnContext()
        self._revise = 0  # the turn's first commands revise the edits on screen (set by _understand)
        self._dropped = 0  # ... and this many edits before those are taken out
        # Asked at the end of a turn, before it is committed: True drops the whole turn (versions,
        # rows, history lines) and raises TurnStopped. The app sets it to its worker's "cancelled".
        self.stop_requested: Callable[[], bool] = lambda: False
        # The photos open in this conversation, beside each other (a search opens its match beside the
        # photo being edited, never in its place); "switch previous" goes back to the one shown before.
        self.photos: list[Document] = [document] if document is not None else []
        self.previous: Document | None = None
        self.found: set[str] = set()  # ids of the documents a search opened
        self.handlers["switch"] = DialogueManager._switch

    # -- the turn --------------------------------------------------------------------------------

    def handle(self, utterance: str) -> TurnResult:
        """Answer one request; never raises for bad input, the reply says what went wrong.

        A request may ask for several edits ("brighten it and add some contrast"): each runs in
        order and makes its own version; the reply names each one. A request Easel cannot serve gets
        a sentence that says so, and a request with two readings a short question, never a guess.
        """
        utterance = utterance.strip()
        if not utterance:
            return TurnResult(utterance, "Type a request, for example 'rotate 90'.", ok=False)
        return self._turn(utterance, lambda: self._understand(utterance))

    def gesture(self, command: Command) -> TurnResult:
        """Run a command given with a gesture (Edit ▸ Crop to Selection) as a turn of its own,
        recorded as if its command line had been typed."""
        return self._turn(command.format(), lambda: ([command], ""))

    def _turn(self, utterance: str, understand: Callable[[], tuple[list[Command], str]]) -> TurnResult:
        # One transaction a turn: a crash keeps the whole turn (words, versions, head, reply) or none.
        store = self.document.store if self.document is not None else None
        head_before = self.document.head.id if self.document is not None else None
        lines = len(self.history)
        self._revise = self._dropped = 0
        self.context.confirmed = self.context.chat = False
        given = self.context.given.get(self.document.root.id, []) if self.document is not None else []
        with store.transaction() if store is not None else contextlib.nullcontext(), names_from(self._opened), \
                names_given(given), unmoved_from(self._unmoved):
            self.history.append(f"user_text: {utterance}")
            commands, reply = understand()
            if not commands:
                result = TurnResult(utterance, reply, ok=self.context.chat)
            else:
                result = self._run_all(commands, utterance)
                if reply:
                    result.reply = f"{result.reply} {reply}"
            self.history.append(f"assistant_text: {result.reply}")
            self._log(result, utterance)
            if self.stop_requested():  # raised inside the transaction: it rolls the turn back
                del self.history[lines:]
                raise TurnStopped(utterance)
        self._note_edit(head_before, result)
        said = name_said([getattr(c, "region", "") for c in result.commands if c.edits_image],
                         (result.data or {}).get("overlays", [])) if result.ok and self.document is not None else None
        if said is not None:  # "make the duck stand out more": a duck from then on, not the caption's goose
            self.context.given.setdefault(self.document.root.id, []).insert(0, said)
        if result.ok and any(c.edits_image for c in result.commands):
            self.context.last_search = None  # "another one" after an edit is not another match
        if result.ok and any(uses_selection(c) for c in result.commands):
            self.context.selection = None  # "brighten this" used the drawing; the next "this" needs another
        return result

    def _opened(self) -> np.ndarray | None:
        """The photo as opened, whose things keep their names on its edits (agent.perception.names_kept)."""
        return self.document.pixels(self.document.root.id) if self.document is not None else None

    def _note_edit(self, head_before: str | None, result: TurnResult) -> None:
        if self.document is None or self.document.head.id == head_before:
            return
        edits = result.commands and all(c.edits_image for c in result.commands)
        head = self.document.head
        if edits and head.id in self.context.undo_to:  # a revision: the request is what it replaced
            span, lineage = self.context.last_edit, [v.id for v in self.document.lineage()]
            self.context.last_edit = (span[0] if span and span[0] in lineage[:-1] else head.parent_id, head.id)
            return
        self.context.last_edit = (head_before, head.id) if edits and head_before else None

    def recent(self) -> Recent:
        """The edit that made the picture on screen and every edit of its request, which follow-ups
        ("too much", "again", "do the same for brightness") refer to; empty at the original."""
        doc = self.document
        if doc is None or doc.head.parent_id is None or not doc.head.command:
            return Recent()
        try:
            last = parse_command(doc.head.command)
        except CommandError:
            return Recent()
        if not last.edits_image:
            return Recent()
        lineage = doc.lineage()
        try:  # (each version's line parsed once: the request is the last of them)
            earlier = tuple(parse_command(v.command) for v in lineage[1:] if v.command)
        except CommandError:
            earlier = (last,)
        request: tuple[Command, ...] = (last,)
        span = self.context.last_edit
        ids = [v.id for v in lineage]
        if span and span[1] == doc.head.id and span[0] in ids and len(earlier) == len(lineage) - 1:
            request = earlier[ids.index(span[0]):]
        return Recent(last, request, earlier=earlier)

    def _run_all(self, commands: list[Command], utterance: str) -> TurnResult:
        """Run the turn's commands in order; stop at the first that fails (its reply says why)."""
        results: list[TurnResult] = []
        revise, self._revise = self._revise, 0
        dropped, self._dropped = self._dropped, 0
        start = self.document.head.id if self.document is not None else None
        if revise:  # the first ``revise`` commands replace the edits on screen, in one step
            results.append(revising.revise(self, commands[:revise], utterance, dropped=dropped))
        for command in commands[revise:]:
            if results and not results[-1].ok:
                break
            results.append(self.run(command, utterance=utterance))
        if len(results) == 1:
            return results[0]
        done = [r for r in results if r.ok]
        last = results[-1]
        versions = [r.version for r in results if r.version is not None]
        if len(versions) > 1 and start is not None and self.document is not None \
                and versions[-1].id == self.document.head.id:
            # one request, one undo step (as in the window's undo stack): "yes" to a plan of three
            # edits, or "too much, and make it warmer", is taken back by one "undo"
            self.context.undo_request[versions[-1].id] = start
        data: dict = {}
        for r in results:
            data.update(r.data)
        return TurnResult(utterance, " ".join(r.reply for r in results), done[0].command if done else last.command,
                          versions[-1] if versions else None, ok=last.ok, data=data,
                          commands=[r.command for r in done if r.command is not None])

    def before_last_request(self) -> str | None:
        """The head before the last request, when that request made several versions and the head
        is still the last of them (one request, one undo entry: "brighten it and add contrast" is
        one change to the person, compared as one by "what changed?" and the Before/After pane)."""
        span, doc = self.context.last_edit, self.document
        if doc is None or not span or span[1] != doc.head.id:
            return None
        lineage = [v.id for v in doc.lineage()]
        return span[0] if span[0] in lineage[:-2] else None  # one version made: just its parent

    def note_image_load(self) -> None:
        """Another photo was opened in this conversation (a search's match, or one clicked in the
        chat): CAISE's ``image_load: N`` line, which the command model reads as the new picture."""
        loads = sum(1 for h in self.history if h.startswith("image_load:"))
        self.history.append(f"image_load: {loads + 1}")

    def typed(self) -> str:
        """What the person typed in this turn (a handler is given only the command)."""
        return next((line.split(":", 1)[1].strip() for line in reversed(self.history)
                     if line.startswith("user_text:")), "")

    def resume(self, document: Document | None, turns: list[dict] | None = None) -> None:
        """Carry on a stored conversation about ``document`` (or start a new one): its history is
        rebuilt from the stored turns and what the last turns left in :attr:`context` is forgotten
        (the phrasing of explanations is a setting, not something a turn left: it stays)."""
        self.document = document
        self.photos, self.previous = ([document] if document is not None else []), None
        self.history = history_from_turns(turns or [])
        self.context = TurnContext(explain_phrasing=self.context.explain_phrasing,
                                   last_edit=_last_edit(document, turns or []))

    def read(self, utterance: str) -> tuple[list[Command], str]:
        """What :meth:`handle` would run for ``utterance`` now, and what it would say, without running it."""
        self.history.append(f"user_text: {utterance.strip()}")
        try:
            return self._understand(utterance.strip(), commit=False)
        finally:
            self.history.pop()

    def _understand(self, utterance: str, *, commit: bool = True) -> tuple[list[Command], str]:
        """The commands to run and what to add to their replies (or, with no commands, the whole reply)."""
        if requests.is_plain_command(utterance):
            return [parse_command(utterance)], ""
        if requests.looks_like_command(utterance):
            try:
                return [parse_command(utterance)], ""
            except CommandError as exc:
                return [], str(exc)  # "rotate 400": say what is valid
        step = search_step(utterance, self.context.last_search)  # "another one", "the second one"
        if step is not None:
            if commit:
                self.context.proposal = None
            return [step], ""
        others = [Path(d.title).name for d in self.open_photos() if d is not self.document]
        switch = read_switch(utterance, others) if others else None  # "go back to the previous photo"
        if switch is not None:
            return [switch], ""
        last = self.context.last_kind
        proposal = self.context.proposal
        if commit:
            self.context.proposal = None
        said = next((line.split(":", 1)[1].strip() for line in reversed(self.history[:-1])
                     if line.startswith("assistant_text:")), "")
        topic, topic_count = self.context.topic, self.context.topic_count
        unfound = self.context.unfound
        if commit:
            self.context.topic = self.context.topic_count = None  # this turn's question, if it asks one, sets it again
            self.context.unfound = None  # (the next turn's only)

        def read(words: str) -> requests.Reading:
            return requests.read(words, model=self._model_command, state=last, proposal=proposal,
                                 photo_open=self.document is not None, last_reply=said,
                                 selection=self.selection() is not None, recent=self.recent(),
                                 searching=self.context.last_search is not None, refused=unfound)

        word = named_as(utterance) if self.document is not None else None
        if word is not None:  # "no, it's a duck": the thing talked about, named by the person
            return [], self._name_given(word, topic, commit)
        reading = about_reading = None
        about = None
        edited = False  # "it" is the thing the last edit was made in ("make the sheep brighter", "remove it")
        asked_after = False  # "it" is the thing just removed, which only a question can be about
        if self.selection() is None:
            look = LOOK_LIKE.search(utterance.lower())  # ("make it look like autumn": the picture, whatever "it" was)
            last_edit = self.recent().last
            region = getattr(last_edit, "region", "") or ""
            if (isinstance(last_edit, Background) and not last_edit.keep) or isinstance(last_edit, ImageCutout):
                region = "background"  # "blur the background", "make it darker too"; "remove the background", "make
                # it white instead": the background
            elif isinstance(last_edit, Background) and last_edit.keep and REST.search(utterance.lower()):
                region = last_edit.keep  # "make the rest darker" after a blur behind the penguin
            thing = re.match(r"(the [a-z]+(?: [a-z]+)?) (?:on|at|in) the ", region)
            if not topic and (thing or region.startswith("the ")) and (
                    ONE.search(utterance.lower()) or PARENT.search(utterance.lower())):
                # "make the right one darker" after an edit of the giraffe on the left; "the one in the
                # middle more" after "make the kids brighter" (it brightened the centre)
                topic = thing.group(1) if thing else region
            elif not topic and region.startswith("the ") and (IT.search(utterance.lower()) or REST.search(utterance.lower())) \
                    and not look:
                topic, edited = region, True  # ("blur everything else" after "make the penguin sharper": it blurred it)
            elif not topic and _FOUND_PART.fullmatch(region) and IT.search(utterance.lower()) \
                    and not re.match(r"\s*(?:it|they)\b", utterance.lower()) \
                    and not look:  # ("it feels cold": the picture)
                topic, edited = f"the {region}", True  # "the sky is too bright", "darken it": the sky
            elif not topic and isinstance(last_edit, Remove) and _REMOVED_THING.fullmatch(last_edit.words) \
                    and IT.search(utterance.lower()):
                topic, asked_after = last_edit.words, True  # "is it gone?" after "remove the joey": a question only
            about = about_topic(utterance, topic, last_region=region, count=topic_count) if topic and not look else None
        if about is not None:  # "make it brighter" after "where is the horse?": the horse
            reading = about_reading = read(about)
            noun = topic_noun(topic)
            if PARENT.search(utterance.lower()) and kind_of_young(noun):
                noun = kind_of_young(noun)  # "the mother" of the joey: the biggest kangaroo
            # a question's words are not in its command line ("describe"): looked for in the question
            if not reading.commands or not all(names_thing(noun, c.format())
                                               or re.search(rf"\b(?:{re.escape(noun)}|{re.escape(plural(noun))})\b",
                                                            getattr(c, "question", ""))
                                               for c in reading.commands):
                reading = None
            elif edited and not all(isinstance(c, (Remove, Background, *REGIONAL)) or getattr(c, "question", "")
                                    or (isinstance(c, CropTo) and _TO_IT.search(utterance.lower()))
                                    for c in reading.commands):  # ("what is he holding?": the one edited)
                reading = None  # "crop it" after "make the sheep brighter": the picture, as before ("crop to it": the sheep)
            elif asked_after and not all(isinstance(c, Describe) for c in reading.commands):
                reading = None  # ("remove it" again after a removal is not the next one of its kind)
            elif commit:
                # still what "it" is: "make it brighter", then "where is it?"
                self.context.topic, self.context.topic_count = topic, topic_count
        resolved = reading is not None  # "the left one" read as the thing talked about
        reading = reading or read(utterance)
        if not reading.commands and not reading.chat and about is not None and re.search(r"\bits\b", utterance.lower()) \
                and not about_reading.commands and about_reading.reply and not about_reading.chat:
            # "zoom in on its face" after "where's the jaguar?": what is said of the jaguar's face ("I can't
            # find the jaguar's face on my own ...", with what to say instead), not "Crop to what?"
            reading = about_reading
        them = re.search(r"\bthem\b", utterance.lower())
        said_before = them is not None and re.search(r"\b(?!(?:is|was|has|does|this|its|us|yes|plus|thanks)\b)[a-z]{2,}s\b",
                                                      utterance.lower()[:them.start()])  # "enhance the colours and make them ..."
        if not resolved and reading.commands and them and not said_before and any(
                c.edits_image and not getattr(c, "region", "") for c in reading.commands):
            # "make them brighter" after "how many people?" found none brightened the whole picture
            return [], ("Which do you mean by “them”? Say what they are (for example “make the people brighter”), "
                        "or draw around them with the trace tool (T).")
        # ("and the other one darker", not understood as a follow-up, darkened the whole picture)
        other = not reading.revise and re.search(r"\bthe other ones?\b", utterance.lower())
        if reading.commands and (ONE.search(utterance.lower()) or other) and not resolved and not reading.confirmed and any(
                c.edits_image and not (other and isinstance(c, Remove)) and not getattr(c, "region", "").startswith("the ")
                for c in reading.commands):
            # "make the left one brighter" with no thing talked about: not the whole picture, nor the
            # middle of the picture for "the one in the middle" (gcompris' meerkats: the middle one was meant);
            # "only the first one" of what was proposed is that edit
            return [], ("Which one do you mean? Say what it is and where, for example “make the dog on "
                        "the left brighter”, or draw around it with the trace tool (T).")
        if reading.proposal and commit:
            self.context.proposal = reading.proposal
        if reading.topic and commit:
            self.context.topic = reading.topic
        if commit:
            self.context.confirmed = reading.confirmed
            self.context.chat = reading.chat
        if reading.commands:
            if commit:
                self._revise, self._dropped = reading.revise, reading.dropped
            return reading.commands, " ".join(reading.notes)
        return [], reading.reply or f"Sorry, I did not understand that. {CAPABILITIES}"

    def _name_given(self, word: str, topic: str | None, commit: bool) -> str:
        """Call the thing talked about (``topic``) ``word`` from now on, in this photo and its edits."""
        from agent.edits.objects import ObjectNotFound, match_objects

        if not topic:
            return ("Which thing do you mean? Ask me what is in the picture first, or where it is (“where is "
                    "the goose?”), then tell me what it is.")
        try:
            box = match_objects(self.document.pixels(), topic)[0].boxes[0]
        except ObjectNotFound:
            return f"I can't find {topic} any more, so I can't give it that name."
        if commit:
            self.context.given.setdefault(self.document.root.id, []).insert(0, (tuple(int(v) for v in box), word))
            self.context.topic, self.context.chat = f"the {word}", True
        return f"Thank you: I'll call it {with_article(word)} from now on."

    # -- photos open beside each other ---------------------------------------------------------------

    def open_photos(self) -> list[Document]:
        """The photos open in this conversation, in the order they were opened (the one shown among them)."""
        photos = list(self.photos)
        if self.document is not None and all(d is not self.document for d in photos):
            photos.append(self.document)
        return photos

    def open_beside(self, doc: Document) -> str:
        """Show ``doc`` (a search's match) beside the photo on screen, which stays open as it is; a match
        opened before and never edited gives its place to the next ("another one"). Returns what the
        reply should say about the photo left, "" when there was none."""
        before = self.document
        self.photos = self.open_photos()
        if before is not None and before.id in self.found and before.head.parent_id is None:
            self.photos = [d for d in self.photos if d is not before]  # an unedited match: the next takes its place
            before = self.previous if self.previous is not before else None
        self.photos.append(doc)
        self.found.add(doc.id)
        self.previous = before
        self.document = doc
        if before is None:
            return ""
        edits = len(before.lineage()) - 1
        kept = f"with its {edits} edit{'s' if edits != 1 else ''}" if edits else "as it was"
        return (f"I opened it beside {Path(before.title).name}, which is still open {kept}: say “go back to the "
                f"previous photo” (or click its tab) to return to it.")

    @staticmethod
    def _switch(manager: DialogueManager, command: Switch) -> TurnResult:
        """``switch previous|<name>``: show another photo open in this conversation."""
        utterance = command.format()
        others = [d for d in manager.open_photos() if d is not manager.document]
        if command.target == "previous":
            target = manager.previous if manager.previous in others else (others[-1] if others else None)
        else:
            target = next((d for d in others if Path(d.title).name.lower() == command.target.lower()), None)
        if target is None:
            names = ", ".join(Path(d.title).name for d in others) or "none"
            return TurnResult(utterance, f"There is no other photo open to switch to (open beside this one: {names}).",
                              command, ok=False)
        manager.photos = manager.open_photos()
        manager.previous, manager.document = manager.document, target
        manager.history.append(command.format())
        manager.note_image_load()
        edits = len(target.lineage()) - 1
        left = Path(manager.previous.title).name if manager.previous is not None else ""
        return TurnResult(utterance, f"Back to {Path(target.title).name} ({edits} edit{'s' if edits != 1 else ''}); "
                          f"{left} stays open beside it.", command, target.head)

    def _model_command(self, clause: str, *, search: bool = False) -> Command | None:
        """The learned parser's command for one clause of the request, when it is sure enough.

        ``search=True``: the words ask for a photo ("find me a picture of ..."), so the kind is not
        in doubt, only the words: the model's best search is taken at a lower confidence."""
        history = [*self.history[:-1], f"user_text: {clause}"]
        pred = self.parser.predict(history, self.concepts(self.document))
        if pred.text is not None and search and pred.confidence >= SEARCH_CONFIDENCE:
            if pred.text.startswith("search "):
                return parse_command(pred.text)
            first = next((a for a in pred.alternatives if a.startswith("search ")), None)
            return parse_command(first) if first else None
        if pred.text is None or pred.confidence < self.min_confidence:
            return None
        try:
            return parse_command(pred.text)
        except CommandError:
            return None

    def run(self, command: Command, *, utterance: str | None = None) -> TurnResult:
        """Execute a command on the document and describe the outcome."""
        utterance = utterance if utterance is not None else command.format()
        self.context.last_kind = None if command.edits_image else command.name
        if command.name in self.handlers:
            return self.handlers[command.name](self, command)
        if isinstance(command, (Undo, Redo)):
            return self._undo_redo(command, utterance)
        if not command.edits_image:
            return TurnResult(utterance, f"'{command.name}' is not available yet.", command, ok=False)
        if self.document is None:
            return TurnResult(utterance, "Open an image first, then ask me to edit it.", command, ok=False)
        before = self.document.pixels()
        levelled = ""
        if isinstance(command, Rotate) and command.level:  # "straighten it": by the horizon's measured tilt
            from agent.edits.straighten import level  # perception's measures: loaded on first use

            measured, levelled = level(before)
            if measured is None:
                return TurnResult(utterance, levelled, command, ok=False)
            command = measured
        drawn = self.selection()
        selection = drawn.mask if drawn is not None else None
        data: dict = {}
        try:
            if uses_selection(command) and command.name == "crop":
                command = selection_box(selection) if selection is not None else command  # replayable
            elif uses_selection(command) and selection is not None:
                # the mask goes with the command (8 bits, beside the versions) so the line replays
                stored = quantized(selection)
                command = with_selection_ref(command, self.document.store.put_pixels(stored))
                selection = stored.astype(np.float32) / np.float32(255)
            own = self.executors.get(command.name)
            if own is not None and not getattr(command, "region", ""):
                pixels, said = own(before), ""
            else:
                done = run_edit(command, before, selection=selection, cutout=self.executors.get("image_cutout"),
                                load=self.document.store.get_pixels)
                pixels, said = done.pixels, done.note
                if done.overlays:
                    data["overlays"] = done.overlays
                if drawn is not None and uses_selection(command) and command.name != "crop":
                    # where the edit applied, outlined on its result (the selection itself is used up)
                    data["overlays"] = [{**drawn.overlay(), "label": "edited here", "fill": False}]
        except RegionNotFound as exc:
            self.context.unfound = command
            return TurnResult(utterance, point_at(command, exc), command, ok=False,
                              data={"overlays": exc.overlays} if exc.overlays else {})
        except (ValueError, LookupError, ModelMissingError) as exc:
            return TurnResult(utterance, f"I could not do that: {exc}", command, ok=False)
        version = self.document.apply(command.format(), pixels)
        self.history.append(command.format())
        # a box beyond the image is said, not hidden, and the size is what was kept
        reply = " ".join(t for t in (levelled, reply_for(command, before.shape, pixels.shape), said) if t)
        return TurnResult(utterance, reply, command, version, data=data)

    def selection(self) -> Selection | None:
        """What the person drew, when it still fits the head: drawn on it, or on a version the head
        was made from by edits that move no pixel (light, colour, black and white, in regions or
        not: "brighten the sky", then "brighten this"); None after a crop, rotation, removal..."""
        drawn, doc = self.context.selection, self.document
        if drawn is None or doc is None:
            return None
        if drawn.version_id is None:
            return drawn if drawn.shape == (doc.head.height, doc.head.width) else None
        return drawn if drawn.version_id in [v.id for v in self.unmoved_since()] else None

    def unmoved_since(self, start: Version | None = None) -> list[Version]:
        """The head (or ``start``) and the versions it was made from by edits that move no pixel
        (:func:`_moves_nothing`), newest first (at most 50)."""
        doc = self.document
        if doc is None:
            return []
        out = [start or doc.head]
        while len(out) < 50:
            try:
                kept = out[-1].command is not None and _moves_nothing(parse_command(out[-1].command))
            except CommandError:
                kept = False
            parent = doc.parent(out[-1].id) if kept else None
            if parent is None:
                break
            out.append(parent)
        return out

    def _unmoved(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The head's pixels and those before the light and colour edits that made it, which the
        detector's looks at the head see instead (agent.perception.names_kept.unmoved_from); None
        when the head was not made by one."""
        chain = self.unmoved_since()
        return (self.document.pixels(), self.document.pixels(chain[-1].id)) if len(chain) > 1 else None

    def _undo_redo(self, command: Command, utterance: str) -> TurnResult:
        is_undo = isinstance(command, Undo)
        what, verb = ("undo", "Undid") if is_undo else ("redo", "Redid")
        steps = command.steps if is_undo else 1
        original = is_undo and command.original
        key = "original" if original else what if steps == 1 else f"{what} {steps}"
        plan = self.context.undo_plan
        if plan is not None:  # the app's undo stack takes the step when the turn returns
            step = plan.get(key)
            if step is None:
                if original:
                    return TurnResult(utterance, "This is already the original.", command, ok=False)
                return TurnResult(utterance, f"There is nothing to {what}." if steps == 1 else
                                  f"There are not {steps} steps to {what}.", command, ok=False)
            version = step.version()
            shown = version_label(version.command) if version is not None else "the previous picture"
            self.history.extend([command.format()] * max(1, steps))
            if original:
                return TurnResult(utterance, "Back to the original; undo brings the edits back.", command, version)
            return TurnResult(utterance, f"{verb} “{step.text}”; now showing {shown}.", command, version)
        doc = self.document
        if doc is None:
            return TurnResult(utterance, "There is nothing to undo yet.", command, ok=False)
        if original:
            if doc.head.id == doc.root.id:
                return TurnResult(utterance, "This is already the original.", command, ok=False)
            gone = len(doc.lineage()) - 1
            self.context.undo_to[doc.root.id] = doc.head.id
            version = doc.checkout(doc.root.id)
            self.history.extend([command.format()] * gone)
            return TurnResult(utterance, "Back to the original; undo brings the edits back.", command, version)
        version, done = None, 0
        for _ in range(steps):
            back = (self.context.undo_to.pop(doc.head.id, None)
                    or self.context.undo_request.pop(doc.head.id, None)) if is_undo else None
            here = doc.head.id
            moved = doc.checkout(back) if back in doc.versions else (doc.undo() if is_undo else doc.redo())
            if moved is None:
                break
            version, done = moved, done + 1
            # in CAISE's form, which replays: one "undo" per version left, then the lines back to a first try
            self.history.extend(caise_path(doc, here, moved.id) if back in doc.versions else [command.format()])
        if version is None:
            return TurnResult(utterance, f"There is nothing to {what}.", command, ok=False)
        did = "it" if steps == 1 else f"{done} steps" if done == steps else f"the {done} steps there were"
        return TurnResult(utterance, f"{verb} {did}; now showing {version_label(version.command)}.", command, version)

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
