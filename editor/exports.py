"""Exports and imports of annotation sessions, and per-annotator statistics (no Qt, no language layer).

Three formats:

- **CAISE JSON** (``md_train.json`` shape): a list of ``{"api", "history_img", "history_utte", "uid"}``,
  one instance per executed command of CAISE's target types (search, adjust_attr, rotate,
  adjust_color, image_cutout), whose history is everything said and done before it: ``user_text: ...``,
  ``assistant_text: ...``, earlier command lines and ``image_load: N`` (the N-th image shown);
  ``history_img`` lists the ids of those images, each with a leading space, as CAISE writes them.
  The file is written like CAISE's (``json.dumps(indent=2)``), so importing ``md_valid.json`` and
  exporting it again gives back the same bytes.
- **Localized Narratives JSONL**: one ``{"dataset_id", "image_id", "annotator_id", "caption",
  "timed_caption", "traces"}`` per line; ``timed_caption`` aligns each typed word to the trace by
  typing time (:func:`editor.annotations.word_times`).
- **Image Editing Request JSON**: a list of ``{"img0", "img1", "sents", "uid"}``, the sentences of
  every annotator of a pair together; pairs flagged invalid are left out.

Imports keep what they read losslessly, so export -> import -> export is the identity, and they are
idempotent (a dialogue, narrative or pair already imported under the same key is skipped).
"""

from __future__ import annotations

import json
import re
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from editor.annotations import (
    CAISE_TARGETS,
    AnnotationStore,
    Event,
    Session,
    command_type,
    word_times,
)
from editor.files import check_output, write_atomic

FORMATS = ("caise", "ln", "ier")
_UTTERANCE = {"user_text": "user_text: ", "assistant_text": "assistant_text: "}
_CAISE_UID = re.compile(r"^(.+)_(\d+)$")


class FormatError(ValueError):
    """A file that is not in the format it was imported as."""


@dataclass
class ImportResult:
    sessions: int = 0
    events: int = 0
    skipped: int = 0  # already imported
    messages: list[str] = field(default_factory=list)


def _first_word(line: str) -> str:
    return line.split()[0] if line.split() else ""


# -- CAISE -------------------------------------------------------------------------------------------

def dialogue_instances(session: Session, events: list[Event],
                       targets: tuple[str, ...] | None = CAISE_TARGETS) -> list[dict]:
    """The CAISE instances of one dialogue: one per executed target command, with its history.

    ``targets`` are the command names that become instances (CAISE's: search, adjust_attr, rotate,
    adjust_color, image_cutout; crop and undo then appear in histories only, as in CAISE's release);
    ``None`` makes every executed command an instance. Imported CAISE dialogues always keep their
    original instances.
    """
    if targets is None:
        targets = ("*",)
    history: list[str] = []
    images: list[str] = []
    out: list[dict] = []
    for ev in events:
        if ev.kind in _UTTERANCE:
            history.append(_UTTERANCE[ev.kind] + (ev.text or ""))
        elif ev.kind == "image_load":
            images.append(ev.data.get("img", " " + (ev.text or "")))
            history.append(ev.data.get("line", f"image_load: {len(images)}"))
        elif ev.kind == "command":
            line = ev.text or ""
            default = (_first_word(line) in targets or "*" in targets) and ev.data.get("ok", True)
            is_instance = ev.data.get("instance", default)
            if is_instance:
                uid = ev.data.get("uid", f"{session.name}_{len(out)}")
                out.append({"api": line, "history_img": list(images), "history_utte": list(history),
                            "uid": uid})
            history.append(line)
    return out


def caise_instances(ann: AnnotationStore, *, only_done: bool = False, all_commands: bool = False
                    ) -> list[dict]:
    """CAISE instances of every dialogue session, in the order the sessions were created."""
    out: list[dict] = []
    for s in ann.sessions("dialogue"):
        if only_done and s.status != "done":
            continue
        targets = None if all_commands and s.meta.get("format") != "caise" else CAISE_TARGETS
        out.extend(dialogue_instances(s, ann.events(s.id), targets))
    return out


def dialogue_images(ann: AnnotationStore) -> dict[str, str]:
    """Image id -> pixel hash (in the store) of every image shown in a recorded dialogue; imported
    dialogues have ids but no pixels and are left out."""
    out: dict[str, str] = {}
    for s in ann.sessions("dialogue"):
        for e in ann.events(s.id, "image_load"):
            if e.data.get("pixels") and e.text:
                out[e.text] = e.data["pixels"]
    return out


def dumps_caise(instances: list[dict]) -> str:
    """CAISE's own file layout (two-space indent, ASCII escapes), byte-identical to md_*.json."""
    return json.dumps(instances, indent=2)


def load_caise(path: str | Path) -> list[dict]:
    """Read and check a CAISE-format file: a list of ``{api, history_img, history_utte, uid}``."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FormatError(f"{path}: not a readable JSON file ({exc})") from exc
    check_caise(data, str(path))
    return data


def check_caise(data, where: str = "CAISE data") -> None:
    if not isinstance(data, list):
        raise FormatError(f"{where}: a CAISE file is a JSON list of instances, got {type(data).__name__}")
    for i, inst in enumerate(data):
        if not isinstance(inst, dict) or set(inst) != {"api", "history_img", "history_utte", "uid"}:
            keys = sorted(inst) if isinstance(inst, dict) else type(inst).__name__
            raise FormatError(f"{where}: instance {i} must have exactly api, history_img, history_utte "
                              f"and uid; got {keys}")
        if not isinstance(inst["api"], str) or not isinstance(inst["uid"], str):
            raise FormatError(f"{where}: instance {i}: api and uid must be strings")
        for key in ("history_img", "history_utte"):
            if not isinstance(inst[key], list) or not all(isinstance(x, str) for x in inst[key]):
                raise FormatError(f"{where}: instance {i}: {key} must be a list of strings")
        if not _CAISE_UID.match(inst["uid"]):
            raise FormatError(f"{where}: instance {i}: uid {inst['uid']!r} is not <dialogue>_<n>")


def import_caise(ann: AnnotationStore, data: list[dict] | str | Path, *, annotator: str = "caise",
                 source: str | None = None) -> ImportResult:
    """Store CAISE instances as dialogue sessions (one per dialogue, keyed by the uid's prefix).

    A dialogue's instances must continue each other (each history starts with the previous
    instance's history and command), as they do in CAISE's release; the dialogue is rebuilt from
    its last instance.
    """
    if not isinstance(data, list):
        source = source or str(data)
        data = load_caise(data)
    else:
        check_caise(data, source or "CAISE data")
    dialogues: dict[str, list[tuple[int, dict]]] = {}
    for inst in data:
        m = _CAISE_UID.match(inst["uid"])
        dialogues.setdefault(m.group(1), []).append((int(m.group(2)), inst))
    result = ImportResult()
    for name, items in dialogues.items():
        items.sort(key=lambda t: t[0])
        rows = _caise_dialogue_events(name, [inst for _, inst in items], annotator)
        # one transaction per dialogue: its row and events together, and a row a killed import
        # left without its events is completed here
        (status,) = ann.write_imported([("dialogue", name, name, {"source": source, "format": "caise"},
                                         rows)])
        _count(result, status, len(rows), name)
    return result


def _count(result: ImportResult, status: str, n_events: int, name: str) -> None:
    if status == "there":
        result.skipped += 1
        return
    result.sessions += 1
    result.events += n_events
    if status == "completed":
        result.messages.append(f"{name}: completed what an interrupted import left half done")


def _caise_dialogue_events(name: str, instances: list[dict], annotator: str) -> list[tuple]:
    for prev, cur in zip(instances, instances[1:]):
        stream = prev["history_utte"] + [prev["api"]]
        if cur["history_utte"][:len(stream)] != stream or \
                cur["history_img"][:len(prev["history_img"])] != prev["history_img"]:
            raise FormatError(f"dialogue {name}: instance {cur['uid']} does not continue {prev['uid']}")
    last = instances[-1]
    stream = last["history_utte"] + [last["api"]]
    positions = {len(inst["history_utte"]): inst["uid"] for inst in instances}
    loads = last["history_img"]
    rows: list[tuple] = []
    n_loads = 0
    for pos, line in enumerate(stream):
        if line.startswith("user_text: "):
            rows.append(("user_text", line[len("user_text: "):], "user", annotator, None, None))
        elif line.startswith("assistant_text: "):
            rows.append(("assistant_text", line[len("assistant_text: "):], "assistant", annotator, None, None))
        elif line.startswith("image_load:"):
            if n_loads >= len(loads):
                raise FormatError(f"dialogue {name}: more image_load lines than history_img entries")
            img = loads[n_loads]
            n_loads += 1
            data = {}
            if line != f"image_load: {n_loads}":
                data["line"] = line
            if not img.startswith(" "):
                data["img"] = img
            rows.append(("image_load", img[1:] if img.startswith(" ") else img, "assistant",
                         annotator, data, None))
        else:  # a command line
            data = {}
            is_instance = pos in positions
            if is_instance != (_first_word(line) in CAISE_TARGETS):
                data["instance"] = is_instance
            if is_instance and positions[pos] != f"{name}_{sum(1 for p in positions if p < pos)}":
                data["uid"] = positions[pos]
            rows.append(("command", line, "assistant", annotator, data, None))
    rows.append(("end", None, None, None, {"imported": True}, None))  # marks the dialogue done
    if n_loads != len(loads):
        raise FormatError(f"dialogue {name}: {len(loads)} history_img entries but {n_loads} image_load lines")
    return rows


# -- Localized Narratives ----------------------------------------------------------------------------

def narrative_record(session: Session, events: list[Event]) -> dict | None:
    """The Localized Narratives record of one narrative session (None if nothing was written)."""
    imported = [e for e in events if e.kind == "imported"]
    if imported:
        return imported[-1].data["record"]
    image = next((e for e in events if e.kind == "image"), None)
    restarts = [i for i, e in enumerate(events) if e.kind == "restart"]
    if restarts:  # "start over": what came before is superseded
        events = events[restarts[-1] + 1:]
    snapshots = [(e.data["t"], e.text or "") for e in events if e.kind == "text"]
    end = next((e for e in reversed(events) if e.kind == "end"), None)
    caption = (end.text if end is not None and end.text is not None else
               snapshots[-1][1] if snapshots else "")
    if not caption.strip():
        return None
    traces: list[list[dict]] = []
    for e in events:
        if e.kind == "stroke" or (e.kind == "point" and not traces):
            traces.append([])
        if e.kind == "point":
            traces[-1].append({"x": e.data["x"], "y": e.data["y"], "t": e.data["t"]})
    traces = [s for s in traces if s]
    last_t = max([snapshots[-1][0]] + [p["t"] for s in traces for p in s]) if snapshots else None
    idata = image.data if image is not None else {}
    annotator = next((e.annotator for e in events if e.kind == "text" and e.annotator), None)
    return {
        "dataset_id": idata.get("dataset_id", "easel"),
        "image_id": idata.get("image_id", session.item),
        "annotator_id": annotator,
        "caption": caption,
        "timed_caption": word_times(caption, snapshots, end_time=last_t) if snapshots else [],
        "traces": traces,
    }


def ln_records(ann: AnnotationStore, *, only_done: bool = False) -> list[dict]:
    out = []
    for s in ann.sessions("narrative"):
        if only_done and s.status != "done":
            continue
        rec = narrative_record(s, ann.events(s.id))
        if rec is not None:
            out.append(rec)
    return out


def dumps_ln(records: list[dict]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def load_ln(path: str | Path) -> list[dict]:
    records = []
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise FormatError(f"{path}: cannot read ({exc})") from exc
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise FormatError(f"{path}:{n}: not JSON ({exc})") from exc
        missing = {"image_id", "caption", "traces"} - set(rec) if isinstance(rec, dict) else {"everything"}
        if missing:
            raise FormatError(f"{path}:{n}: a Localized Narratives record needs {sorted(missing)}")
        if not isinstance(rec["caption"], str):
            raise FormatError(f"{path}:{n}: caption must be text")
        if not isinstance(rec["traces"], list) or not all(
                isinstance(s, list) and all(isinstance(p, dict) and {"x", "y", "t"} <= set(p) for p in s)
                for s in rec["traces"]):
            raise FormatError(f"{path}:{n}: traces must be [[{{x, y, t}}, ...], ...]")
        records.append(rec)
    return records


def import_ln(ann: AnnotationStore, data: list[dict] | str | Path, *, source: str | None = None
              ) -> ImportResult:
    """Store Localized Narratives records as narrative sessions; each record is kept verbatim."""
    if not isinstance(data, list):
        source = source or str(data)
        data = load_ln(data)
    result = ImportResult()
    for rec in data:
        key = f"{rec.get('dataset_id', '')}/{rec['image_id']}/{rec.get('annotator_id', '')}"
        annotator = str(rec.get("annotator_id", "ln"))
        rows = [("imported", rec["caption"], "annotator", annotator, {"record": rec}, None),
                ("end", rec["caption"], "annotator", annotator, None, None)]
        (status,) = ann.write_imported([("narrative", str(rec["image_id"]), key,
                                         {"source": source, "format": "ln"}, rows)])
        _count(result, status, len(rows), key)
    return result


# -- Image Editing Request ---------------------------------------------------------------------------

def ier_records(ann: AnnotationStore) -> list[dict]:
    """One record per image pair with every annotator's instruction; invalid flags are left out."""
    by_uid: dict[str, dict] = {}
    for s in ann.sessions("pair"):
        events = ann.events(s.id)
        pair = next((e for e in events if e.kind == "pair"), None)
        if pair is None:
            continue
        uid = pair.data.get("uid", s.item)
        rec = by_uid.setdefault(uid, {"img0": pair.data["img0"], "img1": pair.data["img1"],
                                      "sents": [], "uid": uid})
        sents = [e.text for e in events if e.kind == "instruction" and e.text and e.text.strip()]
        if sents:  # the last instruction written in a session is the one that counts
            rec["sents"].append(sents[-1])
    return [r for r in by_uid.values() if r["sents"]]


def dumps_ier(records: list[dict]) -> str:
    return json.dumps(records, indent=2)


def load_ier(path: str | Path) -> list[dict]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FormatError(f"{path}: not a readable JSON file ({exc})") from exc
    if not isinstance(data, list):
        raise FormatError(f"{path}: an Image Editing Request file is a JSON list of pairs")
    for i, rec in enumerate(data):
        if not isinstance(rec, dict) or not {"img0", "img1"} <= set(rec) or \
                not isinstance(rec["img0"], str) or not isinstance(rec["img1"], str):
            raise FormatError(f"{path}: entry {i} needs img0 and img1 file names (and optionally sents, uid)")
        sents = rec.get("sents", [])
        if not isinstance(sents, list) or not all(isinstance(x, str) for x in sents):
            raise FormatError(f"{path}: entry {i}: sents must be a list of sentences")
    return data


def pair_uid(rec: dict) -> str:
    return str(rec.get("uid") or f"{rec['img0']}|{rec['img1']}")


def import_ier(ann: AnnotationStore, data: list[dict] | str | Path, *, annotator: str = "ier",
               source: str | None = None) -> ImportResult:
    """Store image pairs; each sentence becomes one annotated pair session (annotators
    ``<annotator>:0``, ``<annotator>:1``, ...), a pair without sentences an item still to annotate."""
    if not isinstance(data, list):
        source = source or str(data)
        data = load_ier(data)
    result = ImportResult()
    for rec in data:
        uid = pair_uid(rec)
        pair = {"img0": rec["img0"], "img1": rec["img1"], "uid": uid}
        sents = rec.get("sents") or []
        meta = {"source": source, "format": "ier"}
        specs = []
        for i, sent in enumerate(sents):
            who = f"{annotator}:{i}"
            specs.append(("pair", uid, f"{uid}#{i}", meta,
                          [("pair", None, "annotator", who, pair, None),
                           ("instruction", sent, "annotator", who, None, None),
                           ("end", None, "annotator", who, None, None)]))
        if not sents:
            specs.append(("pair", uid, uid, meta, [("pair", None, "annotator", None, pair, None)]))
        if any(s.meta.get("format") != "ier" for s in ann.sessions("pair", item=uid)):
            result.skipped += 1  # annotated here already: the pair is not the file's to extend
            continue
        statuses = ann.write_imported(specs)  # every sentence of a pair in one transaction
        if all(s == "there" for s in statuses):
            result.skipped += 1
            continue
        for status, spec in zip(statuses, specs):
            if status != "there":
                _count(result, status, len(spec[4]), spec[2])
    return result


# -- files -------------------------------------------------------------------------------------------

def export(ann: AnnotationStore, fmt: str, path: str | Path, *, only_done: bool = False,
           all_commands: bool = False, overwrite: bool = False) -> int:
    """Write one format to ``path``; returns the number of instances/records written.

    ``all_commands`` (CAISE only): every executed command of a recorded dialogue is an instance,
    crop, undo, redo and flip included (default: CAISE's target types only). An existing ``path``
    is replaced only with ``overwrite=True``; the database being exported, any file in the profile
    folder and any SQLite file are never written over (:func:`editor.files.check_output`, raising
    :class:`~editor.files.OutputError`); the file is written atomically.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}; formats: {', '.join(FORMATS)}")
    check_output(path, overwrite=overwrite, db=ann.store.path)  # before the work, and again below
    if fmt == "caise":
        items = caise_instances(ann, only_done=only_done, all_commands=all_commands)
        text = dumps_caise(items)
    elif fmt == "ln":
        items = ln_records(ann, only_done=only_done)
        text = dumps_ln(items)
    elif fmt == "ier":
        items = ier_records(ann)
        text = dumps_ier(items)
    else:
        raise ValueError(f"unknown export format {fmt!r}; formats: {', '.join(FORMATS)}")
    write_atomic(path, text, overwrite=overwrite, db=ann.store.path)
    return len(items)


def import_file(ann: AnnotationStore, fmt: str, path: str | Path, *, annotator: str | None = None
                ) -> ImportResult:
    if fmt == "caise":
        return import_caise(ann, path, annotator=annotator or "caise")
    if fmt == "ln":
        return import_ln(ann, path)
    if fmt == "ier":
        return import_ier(ann, path, annotator=annotator or "ier")
    raise ValueError(f"unknown import format {fmt!r}; formats: {', '.join(FORMATS)}")


# -- statistics ----------------------------------------------------------------------------------------

def tokens(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def token_f1(a: str, b: str) -> float:
    """Bag-of-words F1 between two sentences (SQuAD style); 1.0 for two empty sentences."""
    ta, tb = tokens(a), tokens(b)
    if not ta and not tb:
        return 1.0
    common = sum((Counter(ta) & Counter(tb)).values())
    if common == 0:
        return 0.0
    p, r = common / len(ta), common / len(tb)
    return 2 * p * r / (p + r)


def command_match_rate(a: list[str], b: list[str]) -> float:
    """Exact match rate of two command sequences, position by position, over the longer one."""
    if not a and not b:
        return 1.0
    same = sum(x.strip().lower() == y.strip().lower() for x, y in zip(a, b))
    return same / max(len(a), len(b))


_CONTENT = {"dialogue": ("command",), "narrative": ("text", "imported"), "pair": ("instruction", "invalid")}


def _owner(kind: str, events: list[Event]) -> str | None:
    """Whose work a session is: the assistant of a dialogue, the writer of a narrative or pair."""
    for e in events:
        if e.kind in _CONTENT[kind] and e.annotator:
            return e.annotator
    return None


def _answer(kind: str, session: Session, events: list[Event]):
    if kind == "dialogue":
        return [e.text or "" for e in events if e.kind == "command"]
    if kind == "narrative":
        rec = narrative_record(session, events)
        return rec["caption"] if rec else ""
    inv = [e for e in events if e.kind in ("instruction", "invalid")]
    if inv and inv[-1].kind == "invalid":
        return None  # flagged invalid: not compared
    return inv[-1].text if inv else ""


def compute_stats(ann: AnnotationStore) -> dict:
    """Per-annotator figures: items, seconds per item, command types, agreement with others.

    An annotator's time on an item is from their first to their last event in that session.
    Agreement pairs every two sessions of the same kind and item done by different annotators:
    dialogues by the exact command match rate, narratives and instructions by token F1.
    """
    per: dict[str, dict] = defaultdict(lambda: {"items": Counter(), "seconds": [], "commands": Counter(),
                                                "agreement": defaultdict(list), "open": 0})
    answers: dict[tuple[str, str], list[tuple[str, object]]] = defaultdict(list)
    for s in ann.sessions():
        events = ann.events(s.id)
        times: dict[str, list[float]] = defaultdict(list)
        for e in events:
            if e.annotator:
                times[e.annotator].append(e.t)
            if e.kind == "command" and e.annotator:
                per[e.annotator]["commands"][command_type(e.text or "")] += 1
        for who, ts in times.items():
            per[who]["items"][s.kind] += 1
            per[who]["seconds"].append(max(ts) - min(ts))
            if s.status != "done":
                per[who]["open"] += 1
        owner = _owner(s.kind, events)
        if owner is not None:
            ans = _answer(s.kind, s, events)
            if ans is not None:
                answers[(s.kind, s.item)].append((owner, ans))
    overall: dict[str, list[float]] = defaultdict(list)
    for (kind, _item), done in answers.items():
        for i in range(len(done)):
            for j in range(i + 1, len(done)):
                (wa, a), (wb, b) = done[i], done[j]
                if wa == wb:
                    continue
                score = command_match_rate(a, b) if kind == "dialogue" else token_f1(a, b)
                per[wa]["agreement"][kind].append(score)
                per[wb]["agreement"][kind].append(score)
                overall[kind].append(score)
    out = {"annotators": {}, "agreement": {k: {"pairs": len(v), "mean": statistics.fmean(v)}
                                           for k, v in overall.items()}}
    for who in sorted(per):
        p = per[who]
        out["annotators"][who] = {
            "items": dict(p["items"]),
            "open": p["open"],
            "seconds_per_item_mean": statistics.fmean(p["seconds"]) if p["seconds"] else 0.0,
            "seconds_per_item_median": statistics.median(p["seconds"]) if p["seconds"] else 0.0,
            "command_types": dict(p["commands"].most_common()),
            "agreement": {k: {"pairs": len(v), "mean": statistics.fmean(v)} for k, v in p["agreement"].items()},
        }
    return out


def format_stats(stats: dict) -> str:
    lines = []
    for who, s in stats["annotators"].items():
        items = ", ".join(f"{n} {k}" for k, n in s["items"].items())
        lines.append(f"{who}: {items} ({s['open']} open); {s['seconds_per_item_mean']:.1f} s per item "
                     f"(median {s['seconds_per_item_median']:.1f})")
        if s["command_types"]:
            total = sum(s["command_types"].values())
            lines.append("  commands: " + ", ".join(f"{k} {n} ({100 * n / total:.0f}%)"
                                                     for k, n in s["command_types"].items()))
        for kind, a in s["agreement"].items():
            what = "exact command match" if kind == "dialogue" else "token F1"
            lines.append(f"  agreement on {kind}s: {what} {a['mean']:.3f} over {a['pairs']} pair(s)")
    for kind, a in stats["agreement"].items():
        what = "exact command match" if kind == "dialogue" else "token F1"
        lines.append(f"all {kind}s: {what} {a['mean']:.3f} over {a['pairs']} pair(s)")
    return "\n".join(lines) if lines else "no annotations yet"
