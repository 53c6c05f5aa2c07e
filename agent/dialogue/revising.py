"""Revisions on the document: the edits on screen made again with other amounts ("too much" after
contrast +40, "a bit less" after "make it moodier"), and the replies when a part is not found.

A revision replaces the last ``len(commands)`` edits of the head's lineage, made again from the
version before them, never on top of their result: the new versions are a branch beside the first
try, the history shows the revised amounts (``undo`` lines, then the new edit lines), and one undo
brings the first try back. Every edit is made in memory first: when one cannot be made, no version
is recorded and the picture on screen stays.
"""

from __future__ import annotations

import re

from agent.edits.regions import RegionNotFound
from agent.edits.run import pointing_example, uses_selection
from agent.edits.run import run as run_edit
from agent.grammar.commands import REGIONAL, Command, CommandError, parse_command, version_label
from agent.grammar.turns import TurnResult
from agent.language.revisions import revision_reply
from agent.perception.names_kept import unmoved_from
from agent.perception.vocabulary import singular
from editor.document import Document
from editor.models import ModelMissingError


def common_ancestor(doc: Document, a: str, b: str) -> int:
    """The index, in version ``b``'s lineage, of the last version it shares with ``a``'s."""
    up = [v.id for v in doc.lineage(a)]
    down = doc.lineage(b)
    return max((i for i, v in enumerate(down) if i < len(up) and up[i] == v.id), default=0)


def caise_path(doc: Document, start: str, end: str) -> list[str]:
    """The CAISE lines that take the picture from version ``start`` to version ``end`` when replayed
    (each edit line applies to the image on screen, each ``undo`` goes back one): one ``undo`` per
    version from ``start`` up to their common ancestor, then the command lines down to ``end``. A
    revision ("too much" after contrast +40) is written ``undo`` and ``adjust_attr contrast 10``, so
    the conversation's history replays to the pixels on screen."""
    common = common_ancestor(doc, start, end)
    return ["undo"] * (len(doc.lineage(start)) - 1 - common) + [v.command or "" for v in doc.lineage(end)[common + 1:]]


def point_at(command: Command, exc: RegionNotFound) -> str:
    """The reply when a region is not in the picture: what was not found, that nothing changed,
    and how to point at it instead (never the whole picture in its place)."""
    what = str(exc)
    if uses_selection(command):  # "brighten this" with nothing drawn
        return (f"{what[:1].upper()}{what[1:]}, so I changed nothing. Draw around what you mean with the trace "
                f"tool (T) or a box (B), then say “{pointing_example(command)}” again.")
    said = re.search(r"\bfind (?:the|any) ([a-z]+)\b", what)
    many = said is not None and singular(said.group(1)) != said.group(1)  # "the kids", "the people"
    there = "If they are there, draw around them" if many else "If it is there, draw around it"
    return (f"{what[:1].upper()}{what[1:]}, so I changed nothing. {there} with the "
            f"trace tool (T) or a box (B) and say “{pointing_example(command)}”.")


def revise(manager, commands: list[Command], utterance: str, *, dropped: int = 0) -> TurnResult:
    """Replace the last ``len(commands)`` edits on screen by ``commands`` (the same edits, some with
    other amounts), made again from the version before them; with ``dropped``, the edits before those
    (that many) are taken out too ("undo the blur" when an edit came after it: the later one is made
    again without it). ``manager`` is the :class:`agent.dialogue.manager.DialogueManager` whose
    document, history and context this changes."""
    doc = manager.document
    lineage = doc.lineage() if doc is not None else []
    if len(lineage) <= len(commands) + dropped:  # nothing (or not enough) on screen to replace: a fresh edit
        return manager.run(commands[0], utterance=utterance)
    manager.context.last_kind = None
    replaced, base = doc.head, lineage[-1 - len(commands) - dropped]
    taken_out = [v.command or "" for v in lineage[len(lineage) - len(commands) - dropped:len(lineage) - len(commands)]]
    olds = []
    for version, command in zip(lineage[-len(commands):], commands, strict=True):
        try:
            olds.append(parse_command(version.command or ""))
        except CommandError:
            olds.append(command)
    pixels, made, notes, overlays = doc.pixels(base.id), [], [], []
    # the parts found by their look (the sky, the greenery) are looked for on the picture before the light
    # and colour edits, as on the picture on screen: "too red" after "give the sky a sunset look" found no sky
    root = doc.pixels(manager.unmoved_since(base)[-1].id) if isinstance(commands[0], REGIONAL) else None
    for command in commands:
        try:
            pair = None if root is None else (pixels, root)
            with unmoved_from(lambda pair=pair: pair):
                done = run_edit(command, pixels, load=doc.store.get_pixels)
        except RegionNotFound as exc:  # "no, only the castle": said as a fresh edit says it, nothing changed
            return TurnResult(utterance, point_at(command, exc), command, ok=False,
                              data={"overlays": exc.overlays} if exc.overlays else {})
        except (ValueError, LookupError, ModelMissingError) as exc:
            return TurnResult(utterance, f"I could not do that: {exc}", command, ok=False)
        pixels = done.pixels
        if not isinstance(command, REGIONAL):
            root = None  # (a picture made by other edits is looked at as it is)
        made.append(pixels)
        notes.append(done.note)
        overlays.extend(done.overlays or [])
    parent = base
    for command, pixels in zip(commands, made, strict=True):
        parent = doc.apply(command.format(), pixels, parent=parent.id)
    manager.context.undo_to[parent.id] = replaced.id
    manager.history.extend(caise_path(doc, replaced.id, parent.id))  # "undo", then the new amounts
    # what was revised, then what the edits said of themselves ("I see 2 giraffes and changed the one on the right")
    said = [revision_reply(old, new) for old, new in zip(olds, commands, strict=True) if old != new]
    if len(said) > 1 and len(set(said)) == 1:  # "the other way" after "again": each of the repeats
        said = [f"{said[0].rstrip('.')}, {'both' if len(said) == 2 else f'all {len(said)}'} times."]
    if taken_out:
        kept = "”, “".join(c.label() for c in commands)
        said.insert(0, f"Took out “{'”, “'.join(version_label(line) for line in taken_out)}” and made “{kept}” again "
                       f"without it.")
    reply = " ".join(t for t in (*said, *notes) if t)
    return TurnResult(utterance, reply, commands[0], parent, data={"overlays": overlays} if overlays else {},
                      commands=list(commands))

