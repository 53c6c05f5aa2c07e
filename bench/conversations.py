"""Multi-turn conversations through the whole assistant: ``python bench/conversations.py``.

Each conversation of ``bench/conversations.json`` (written as people type, issue 27) runs on a real
photo (scikit-image's samples or ``resources/library``) through
:func:`agent.dialogue.assistant.build_manager`, the assistant the app and ``main.py edit`` build,
learned command model included, with the bundled sample library for searches. After every turn
the document's lineage (the command lines from the original to the head), the reply and what ran
are checked against the turn's expectations (the file's ``about`` says how they are written).

Printed for the development conversations and the held-out ones apart (``heldout``: written before
any run of them, never tuned on): follow-up turns right (revisions, repeats, "the same for", undo,
the original, small talk, comparisons, "yes" to a proposal), and of the others how many moved in the
**wrong direction** (a revision or an adjustment whose amount moved opposite to what was asked), ran
an edit of the **wrong kind** (another edit than asked, or an edit where none was asked: a question
or "thanks" run as an edit, an undo where a revision was asked) or were **refused** (nothing ran
where something should have); answers to questions right (questions about the picture and
critiques); then right/total per kind. ``--show`` prints every turn that was not right (dev only
unless ``--show all``); ``--json`` writes every turn.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "conversations.json"
SPLITS = ("dev", "heldout")
ANSWERS = {"question", "critique"}  # answers to questions about the picture
OTHER = {"search", "single"}  # single requests and searches (issue 27 items 5-6), counted apart
_RANGE = re.compile(r"~([\[(])\s*([+-]?[\d.]+)\s*,\s*([+-]?[\d.]+)\s*([\])])")


def photo_pixels(name: str):
    if name.startswith("mate:"):
        from bench.photoset import load_mate

        return load_mate(name.split(":", 1)[1])
    if name.startswith("skimage:"):
        from skimage import data

        return getattr(data, name.split(":", 1)[1])()
    from editor.imageio import read_image

    return read_image(ROOT / "resources" / "library" / name).pixels


def line_matches(pattern: str, line: str) -> bool:
    """A command line against an expected one, whose numbers may be ranges: ``adjust_attr contrast ~(0,40)``."""
    want, got = pattern.split(), line.split()
    if len(want) != len(got):
        return False
    for w, g in zip(want, got):
        m = _RANGE.fullmatch(w)
        if m is None:
            if w != g:
                try:
                    if float(w) != float(g):
                        return False
                except ValueError:
                    return False
            continue
        try:
            v = float(g)
        except ValueError:
            return False
        lo, hi = float(m.group(2)), float(m.group(3))
        if not ((lo <= v if m.group(1) == "[" else lo < v) and (v <= hi if m.group(4) == "]" else v < hi)):
            return False
    return True


def lineage_matches(patterns: list[str], lines: list[str]) -> bool:
    return len(patterns) == len(lines) and all(line_matches(p, x) for p, x in zip(patterns, lines))


def amount(line: str) -> tuple[str, float] | None:
    """What a command line adjusts and by how much (rotations signed, counter-clockwise positive)."""
    parts = line.split()
    try:
        if parts[0] == "adjust_attr":
            return parts[1], float(parts[2])
        if parts[0] == "adjust_color":
            return f"tint {parts[1]}", float(parts[2])
        if parts[0] == "rotate":
            deg = float(parts[1]) % 360
            return "rotate", deg if deg <= 180 else deg - 360
        if parts[:2] == ["background", "blur"]:  # its strength, 1 when left out ("background blur behind the dog")
            return "background blur", float(parts[2]) if len(parts) > 2 and parts[2][:1].isdigit() else 1.0
    except (IndexError, ValueError):
        return None
    return None


def revised_as_asked(how: str, old: str, new: str) -> tuple[bool, bool]:
    """(right, wrong direction) for a revision of command line ``old`` into ``new``."""
    a, b = amount(old), amount(new)
    if a is None or b is None:
        return False, False
    if a[0] != b[0]:
        if how == "opposite" and a[0].startswith("tint ") and b[0].startswith("tint "):
            from agent.language.revisions import OPPOSITE_TINT

            return OPPOSITE_TINT.get(a[0][5:]) == b[0][5:], False
        return False, False
    x, y = a[1], b[1]
    if how == "less":
        ok = abs(y) < abs(x) and (y == 0 or (y > 0) == (x > 0))
        return ok, abs(y) > abs(x) or (y * x < 0)
    if how == "more":
        ok = abs(y) > abs(x) and (y > 0) == (x > 0)
        return ok, abs(y) < abs(x) or (y * x < 0)
    ok = y * x < 0 and abs(abs(y) - abs(x)) <= 0.5 * abs(x) + 1e-9  # opposite, a like amount
    return ok, y * x > 0 and abs(y) >= abs(x)


def net(lines: list[str]) -> dict[str, float]:
    out: dict[str, float] = collections.defaultdict(float)
    for line in lines:
        a = amount(line)
        if a is not None:
            out[a[0]] += a[1]
    return out


def check(turn: dict, before: list[str], after: list[str], result, opened: bool) -> tuple[bool, bool, list[str]]:
    """Whether the turn did what it expects, whether it moved the wrong way, and what failed."""
    fails: list[str] = []
    wrong_way = False
    ran = [c.format() for c in result.commands] if result.ok else []
    if "lineage" in turn and not lineage_matches(turn["lineage"], after):
        fails.append(f"lineage {after} != {turn['lineage']}")
    if "lineage_len" in turn and (len(after) != turn["lineage_len"] or after != before[: len(after)]):
        fails.append(f"lineage {after}, wanted the first {turn['lineage_len']} of {before}")
    if turn.get("unchanged") and after != before:
        fails.append(f"changed the picture: {after}")
    if "adds" in turn:
        adds = turn["adds"]
        if not (after[: len(before)] == before and lineage_matches(adds, after[len(before):])):
            fails.append(f"added {after[len(before):] if after[:len(before)] == before else after} != {adds}")
        for pattern in adds:
            a = amount(pattern.replace("~", "").split("(")[0] + " 1") if "~" in pattern else amount(pattern)
            want = _RANGE.search(pattern)
            if want is None or a is None:
                continue
            sign = 1 if float(want.group(2)) >= 0 else -1  # the range's side of zero says the direction
            changed = net(after).get(a[0], 0.0) - net(before).get(a[0], 0.0)
            if changed * sign < 0:
                wrong_way = True
    if turn.get("adds_some") and not (len(after) > len(before) and after[: len(before)] == before):
        fails.append(f"ran nothing: {after}")
    if "adds_count" in turn and not (len(after) - len(before) == turn["adds_count"] and after[:len(before)] == before):
        fails.append(f"added {after[len(before):]}, wanted {turn['adds_count']}")
    if "revise" in turn:
        if after == before:
            fails.append("nothing was revised")
        elif not before or len(after) != len(before) or after[:-1] != before[:-1]:
            fails.append(f"not a revision of the last edit: {before} -> {after}")
            if before and len(after) == len(before) + 1:  # stacked on top: judge the direction of the sum
                a = amount(before[-1])
                if a is not None:
                    changed = net(after).get(a[0], 0.0) - net(before).get(a[0], 0.0)
                    wrong_way = {"less": changed * a[1] > 0, "more": changed * a[1] < 0,
                                 "opposite": changed * a[1] > 0}[turn["revise"]]
        else:
            ok, wrong_way = revised_as_asked(turn["revise"], before[-1], after[-1])
            if not ok:
                fails.append(f"revised {before[-1]!r} into {after[-1]!r}, wanted {turn['revise']}")
    if turn.get("repeat"):
        if not before:
            fails.append("nothing to repeat")
        else:
            # the last request's commands again: the tail of the lineage appended once more
            k = len(after) - len(before)
            if k < 1 or after[: len(before)] != before or after[len(before):] != before[len(before) - k:]:
                fails.append(f"not a repeat: {before} -> {after}")
    if "reply" in turn and not re.search(turn["reply"], result.reply or ""):
        fails.append(f"reply {result.reply!r} !~ {turn['reply']}")
    if turn.get("asks") and (ran or after != before or opened or not (result.reply or "").rstrip().endswith("?")):
        fails.append(f"did not ask first: ran {ran}, reply {result.reply!r}")
    if "search" in turn:  # a search that found nothing good enough ran too (its reply says so)
        searched = [c.format()[len("search "):] for c in result.commands if c.name == "search"]
        want = turn["search"]
        if want is None and searched:
            fails.append(f"searched {searched}")
        elif want is not None and [_words(s) for s in searched] != [_words(want)]:
            fails.append(f"searched {searched}, wanted {want!r}")
    if "opened" in turn and opened != turn["opened"]:
        fails.append(f"opened a photo: {opened}, wanted {turn['opened']}")
    for pattern in turn.get("forbid", []):
        for line in ran:
            if re.search(pattern, line):
                fails.append(f"ran {line!r}")
                wrong_way = True
    if "revise_first" in turn:  # "too much, and make it warmer": the last edit revised, then more
        k = len(before) - 1
        if k < 0 or len(after) <= k or after[:k] != before[:k]:
            fails.append(f"not a revision of the last edit: {before} -> {after}")
        else:
            ok, ww = revised_as_asked(turn["revise_first"], before[-1], after[k])
            a = amount(before[-1])
            stacked = a is not None and any((amount(x) or ("", 0))[0] == a[0] for x in after[k + 1:])
            if stacked:  # the correction stacked on top: judge the direction of the sum
                changed = net(after).get(a[0], 0.0) - net(before).get(a[0], 0.0)
                ww = {"less": changed * a[1] > 0, "more": changed * a[1] < 0, "opposite": changed * a[1] > 0}[
                    turn["revise_first"]]
            wrong_way = wrong_way or ww
            if not ok or stacked:
                fails.append(f"revised {before[-1]!r} into {after[k:]!r}, wanted {turn['revise_first']} first")
    if turn.get("box") and not any(o.get("kind") == "box" for o in (result.data or {}).get("overlays", [])):
        fails.append("no box drawn")
    if turn.get("plan") and not ((result.data or {}).get("plan") or "leave it" in (result.reply or "")):
        fails.append("no plan proposed")
    return not fails, wrong_way, fails


def _kind(line: str) -> str:
    """What a command line edits, without its amount or region: "attr contrast", "tint", "rotate"."""
    parts = line.split()
    if not parts:
        return ""
    if parts[0] == "adjust_attr" and len(parts) > 1:
        return f"attr {parts[1]}"
    return {"adjust_color": "tint"}.get(parts[0], parts[0])


def expected_change(turn: dict, before: list[str]) -> set[str] | None:
    """The kinds of edit a turn asks for ("undo" for going back), or None when it asks for none."""
    if turn.get("unchanged") or turn["kind"] in ANSWERS:
        return None
    if "revise" in turn:
        return {_kind(before[-1]), "tint"} if before else set()
    if turn.get("repeat"):
        return {_kind(x) for x in before}
    kinds: set[str] = set()
    for key in ("adds", "lineage"):
        kinds |= {_kind(x) for x in turn.get(key, [])}
    if "lineage" in turn and len(turn["lineage"]) < len(before) or "lineage_len" in turn:
        kinds.add("undo")
    if turn.get("adds_some") or "adds_count" in turn:
        kinds.add("any")
    return kinds


def outcome(turn: dict, before: list[str], after: list[str], right: bool, wrong_way: bool, reply: str) -> str:
    """right | wrong direction | wrong kind | refused | wrong (another miss: the amount, the words)."""
    if right:
        return "right"
    if wrong_way:
        return "wrong direction"
    want = expected_change(turn, before)
    changed = after != before
    if want is None:
        if changed:
            return "wrong kind"  # a question or "thanks" run as an edit
        return "refused" if reply.startswith("Sorry, I did not understand") else "wrong"
    if not changed:
        return "refused"
    got = {_kind(x) for x in after if x not in before} or set()
    if len(after) < len(before) or (after != before[:len(after)] and not got):
        got.add("undo")
    if "any" in want or got <= want:
        return "wrong"
    return "wrong kind"


def _words(query: str) -> set[str]:
    """A query's content words, as CAISE compares searches (any order; here without "a", "on", "the")."""
    return {w for w in query.lower().split() if w not in {"a", "an", "the", "on", "in", "of", "with", "some"}}


def lineage(doc) -> list[str]:
    return [v.command for v in doc.lineage()[1:]] if doc is not None else []


def run(data: dict, parser, library: Path, show: bool) -> tuple[dict, list[dict]]:
    from agent.dialogue.assistant import build_manager
    from editor.document import Document
    from editor.store import Store

    counts: dict[str, dict[str, collections.Counter]] = {
        split: collections.defaultdict(collections.Counter) for split in SPLITS}
    rows = []
    for conv in data["conversations"]:
        store = Store(Path(tempfile.mkdtemp(prefix="easel-conv-")) / "easel.db")
        doc = None
        if conv["photo"]:
            doc = Document.create(store, photo_pixels(conv["photo"]), title=conv["photo"])
        manager = build_manager(doc, parser=parser, library_path=library, sample=True, store=store)
        for turn in conv["turns"]:
            doc_before = manager.document
            before = lineage(doc_before)
            result = manager.handle(turn["say"])
            opened = manager.document is not doc_before
            after = lineage(manager.document) if not opened else lineage(doc_before)
            right, wrong_way, fails = check(turn, before, after, result, opened)
            how = outcome(turn, before, after, right, wrong_way, result.reply or "")
            row = {"conversation": conv["id"], "split": conv["split"], "kind": turn["kind"], "say": turn["say"],
                   "right": right, "outcome": how, "wrong_direction": wrong_way, "fails": fails,
                   "reply": result.reply, "ran": [c.format() for c in result.commands] if result.ok else []}
            rows.append(row)
            if turn["kind"] != "setup":
                c = counts[conv["split"]][turn["kind"]]
                c["n"] += 1
                if not right:
                    c[how] += 1
                else:
                    c["right"] += 1
            if show and not right and (conv["split"] == "dev" or show == "all"):
                print(f"[{conv['split']} {conv['id']}] {turn['say']!r} ({turn['kind']}, {how}): {'; '.join(fails)}\n"
                      f"    reply: {result.reply[:160]!r}")
    return counts, rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--show", nargs="?", const="dev", choices=["dev", "all"],
                    help="print the turns that were not right (dev only unless 'all')")
    ap.add_argument("--json", help="write every turn to this file")
    ap.add_argument("--no-model", action="store_true", help="rules only, no learned command model")
    ap.add_argument("--split", choices=SPLITS, help="run only these conversations (tune on dev alone)")
    args = ap.parse_args()
    import torch

    torch.set_num_threads(2)
    from agent.dialogue.assistant import load_parser
    from agent.dialogue.manager import GrammarParser

    data = json.loads(Path(args.data).read_text())
    if args.split:
        data["conversations"] = [c for c in data["conversations"] if c["split"] == args.split]
    parser = GrammarParser() if args.no_model else load_parser()
    library = Path(tempfile.mkdtemp(prefix="easel-conv-lib-")) / "library.db"
    library.parent.mkdir(parents=True, exist_ok=True)
    from agent.search.library import Library

    Library(library).ensure_sample()  # the bundled photos, perceived ahead (resources/library/perception.json)
    counts, rows = run(data, parser, library, args.show)
    for split in (args.split,) if args.split else SPLITS:
        c = counts[split]
        convs = [conv for conv in data["conversations"] if conv["split"] == split]
        print(f"\n{split}: {len(convs)} conversations on {len({conv['photo'] for conv in convs})} photos")
        for title, kinds in (("follow-up turns", [k for k in c if k not in ANSWERS | OTHER]),
                             ("answers to questions", [k for k in c if k in ANSWERS]),
                             ("single requests and searches", [k for k in c if k in OTHER])):
            total = collections.Counter()
            for k in kinds:
                total.update(c[k])
            n = total["n"]
            if not n:
                continue
            print(f"  {title}: {total['right']}/{n} right ({100 * total['right'] / n:.1f}%); "
                  f"wrong direction {total['wrong direction']}, wrong kind {total['wrong kind']}, "
                  f"refused {total['refused']}, other misses {total['wrong']}")
        for kind in sorted(c):
            k = c[kind]
            misses = ", ".join(f"{what} {k[what]}" for what in ("wrong direction", "wrong kind", "refused", "wrong")
                               if k[what])
            print(f"    {kind:10s} {k['right']:3d}/{k['n']:<3d}" + (f"  ({misses})" if misses else ""))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
