"""Real requests: what Easel would run for GIER's validation requests. ``python bench/requests.py``.

GIER (Shi et al., ACCV 2020) pairs photos people posted for editing with the operations an expert
used; ``../shared/data/gier/gier_val.json`` holds the validation split's 618 pairs and their ~3,000
requests (``expert_summary`` and ``amateur_summary``; no images). Each request runs as a fresh one-turn
conversation through the assistant the app builds (:func:`agent.dialogue.assistant.build_manager`, learned
command model included), asking what it would run (:meth:`DialogueManager.read`), and is scored:

- right: it would run commands, every one of a kind the expert used (table ``KINDS`` maps Easel's
  commands onto GIER's operations);
- partly: several commands, some of a kind the expert used and some not ("sharpen it and brighten it"
  where the expert only brightened);
- wrong: it would run only commands of kinds the expert did not use (a search counts: it replaces the
  user's photo with another);
- refused: it runs nothing (a refusal, a question, or an answer such as describe).

Figures are printed overall and for the pairs where Easel covers every labelled operation. Misses
whose request names none of the labelled operations ("make this guy batman" labelled sharpness)
are counted apart as likely label noise, by :func:`mentions`; they are not tuned to. ``--show wrong``
prints the wrong readings one by one, ``--json`` writes every reading. GIER's test split is held back
for independent evaluation and is never read here.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

GIER = Path(__file__).resolve().parents[2] / "shared" / "data" / "gier" / "gier_val.json"

# Which of GIER's operations each kind of Easel command performs.
KINDS: dict[str, set[str]] = {
    "brightness": {"brightness", "lightness", "exposure"},
    "contrast": {"contrast"},
    "saturation": {"saturation"},
    "black_and_white": {"black&white", "saturation"},
    "sharpen": {"sharpness"},
    "blur": {"gaussain_blur", "facet_blur", "radial_blur"},
    "warmth": {"tint", "hue"},
    "hue": {"hue"},
    "adjust_color": {"tint", "hue"},
    "auto_enhance": {"brightness", "contrast", "lightness", "exposure", "tint"},
    "remove": {"inpaint_obj"},
    "background": {"color_bg"},
    "background_blur": {"gaussain_blur", "color_bg"},
    "image_cutout": {"color_bg"},
    "crop": {"crop"},
    "rotate": {"rotate"},
    "flip": {"flip"},
    # the pupils' red taken out and darkened: what GIER's experts did for red eyes with local saturation,
    # lightness and hue edits
    "red_eye": {"saturation", "lightness", "brightness", "hue"},
}
COVERED = set().union(*KINDS.values())
# Words that name each GIER operation, for the label-noise split (a request naming none of its labels).
OP_WORDS = {
    "brightness": r"bright|light|dark|dim|expos|shadow|sun", "lightness": r"bright|light|dark|dim|expos",
    "exposure": r"expos|bright|light|dark", "contrast": r"contrast|pop|punch|flat|vivid",
    "saturation": r"saturat|colou?r|vivid|vibran|dull|muted|black and white|b&w|gr[ae]y",
    "hue": r"hue|colou?r|tone|tint|red|blue|green|yellow|orange|pink|purple|warm|cool",
    "tint": r"tint|tone|colou?r|cast|hue|red|blue|green|yellow|orange|pink|purple|warm|cool|filter",
    "sharpness": r"sharp|clear|clarity|crisp|focus|blur|detail|defin", "inpaint_obj": r"remov|eras|delet|rid|take out",
    "color_bg": r"background|backdrop|isolat|cut ?out", "crop": r"crop|zoom|trim|cut", "rotate": r"rotat|turn|straight",
    "flip": r"flip|mirror", "black&white": r"black|white|gr[ae]y|monochrom|colou?r",
    "gaussain_blur": r"blur|soft|smooth", "facet_blur": r"blur", "radial_blur": r"blur",
}


def kind_of(command) -> str:
    """The KINDS key of one command."""
    from agent.grammar.commands import AdjustAttr, Background

    if isinstance(command, AdjustAttr):
        if command.attr == "sharpness":
            return "sharpen" if command.amount >= 0 else "blur"
        if command.attr == "saturation" and command.amount <= -100:
            return "black_and_white"
        return command.attr
    if isinstance(command, Background):
        return "background_blur" if command.mode == "blur" else "background"
    return {"grayscale": "black_and_white"}.get(command.name, command.name)


def mentions(request: str, ops: set[str]) -> bool:
    """Whether the request has a word for at least one of the labelled operations."""
    text = request.lower()
    return any(re.search(OP_WORDS[op], text) for op in ops if op in OP_WORDS)


def score(commands: list, ops: set[str]) -> str:
    if not commands:
        return "refused"
    kinds = [kind_of(c) for c in commands]
    if any(k not in KINDS for k in kinds if k not in ("explain", "describe", "undo", "redo")):
        return "wrong"  # a search, which would replace the user's photo
    edits = [k for k in kinds if k in KINDS]
    if not edits:
        return "refused"
    labelled = [bool(KINDS[k] & ops) for k in edits]
    return "right" if all(labelled) else "partly" if any(labelled) else "wrong"


def evaluate(pairs, photo, parser, show=None):
    """Read every request of ``pairs`` in a fresh one-turn conversation; counts, kinds, rows, times."""
    from agent.dialogue.manager import DialogueManager

    counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    by_kind: collections.Counter = collections.Counter()
    rows, times = [], []
    for pair in pairs:
        ops = set(pair["operator"])
        covered = ops <= COVERED
        for request in [*pair.get("expert_summary", []), *pair.get("amateur_summary", [])]:
            if not isinstance(request, str) or not request.strip():
                continue
            manager = DialogueManager(photo, parser=parser)  # a fresh one-turn conversation about a photo
            t = time.perf_counter()
            commands, reply = manager.read(request)
            times.append(time.perf_counter() - t)
            outcome = score(commands, ops)
            noise = outcome != "right" and not mentions(request, ops)
            for group in ("all", "covered" if covered else "uncovered"):
                counts[group][outcome] += 1
                counts[group]["n"] += 1
                if noise:
                    counts[group][f"{outcome}, request names no labelled op"] += 1
            for c in commands:
                by_kind[kind_of(c)] += 1
            row = {"request": request, "ops": sorted(ops), "commands": [c.format() for c in commands],
                   "reply": reply, "outcome": outcome, "label_noise": noise}
            rows.append(row)
            if show == outcome:
                print(f"[{outcome}] {request!r}\n    expert: {', '.join(sorted(ops))}\n    easel: "
                      f"{'; '.join(row['commands']) or reply[:120]}")
    return counts, by_kind, rows, times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(GIER))
    ap.add_argument("--show", choices=["wrong", "partly", "refused", "right"], help="print these readings")
    ap.add_argument("--limit", type=int, default=0, help="only the first N pairs")
    ap.add_argument("--no-model", action="store_true", help="rules only, no learned command model")
    ap.add_argument("--json", help="write every reading to this file")
    ap.add_argument("--rules", default=None,
                    help="the request reader's rules on, by name: 'a,b' only those, '-a,-b' all but those")
    ap.add_argument("--ablate", action="store_true",
                    help="each request rule's worth: right and wrong with that one rule off, against all on")
    args = ap.parse_args()
    if not Path(args.data).exists():
        print(f"GIER's validation split is not at {args.data}", file=sys.stderr)
        return 2
    import torch

    torch.set_num_threads(2)
    from agent.dialogue.assistant import load_parser
    from agent.dialogue.manager import GrammarParser

    t0 = time.perf_counter()
    parser = GrammarParser() if args.no_model else load_parser()
    load_s = time.perf_counter() - t0
    import tempfile

    import numpy as np

    from editor.document import Document
    from editor.store import Store

    # GIER's photos are not included: the conversations are about a grey stand-in, opened as a user would.
    photo = Document.create(Store(Path(tempfile.mkdtemp(prefix="easel-gier-")) / "bench.db"),
                            np.full((64, 64, 3), 128, np.uint8), title="stand-in")
    pairs = json.loads(Path(args.data).read_text())
    if args.limit:
        pairs = pairs[: args.limit]
    from agent.language import reader

    if args.ablate:
        base = evaluate(pairs, photo, parser)[0]["all"]
        print(f"request rules, GIER validation ({base['n']} requests): all on {base['right']} right, "
              f"{base['wrong']} wrong; each rule off:")
        for name in reader.RULE_NAMES:
            reader.use_rules(f"-{name}")
            c = evaluate(pairs, photo, parser)[0]["all"]
            print(f"  {name:18s} right {c['right'] - base['right']:+5d}   wrong {c['wrong'] - base['wrong']:+5d}   "
                  f"refused {c['refused'] - base['refused']:+5d}")
        reader.use_rules(None)
        return 0
    on = reader.use_rules(args.rules)
    if args.rules:
        print(f"request rules on: {', '.join(n for n in reader.RULE_NAMES if n in on) or 'none'}")
    counts, by_kind, rows, times = evaluate(pairs, photo, parser, args.show)
    print(f"\nGIER validation: {len(pairs)} pairs, {counts['all']['n']} requests; model load {load_s:.1f} s; "
          f"reading a request: median {sorted(times)[len(times) // 2] * 1000:.1f} ms")
    print(f"{'':28s}{'n':>6s}{'right':>9s}{'partly':>9s}{'wrong':>9s}{'refused':>9s}")
    for group, title in (("all", "all requests"), ("covered", "Easel covers every op"),
                         ("uncovered", "some op not covered")):
        c = counts[group]
        n = max(c["n"], 1)
        print(f"{title:28s}{c['n']:6d}{100 * c['right'] / n:8.1f}%{100 * c['partly'] / n:8.1f}%{100 * c['wrong'] / n:8.1f}%"
              f"{100 * c['refused'] / n:8.1f}%")
    c = counts["all"]
    print(f"\nof the wrong: {c['wrong, request names no labelled op']} name none of the labelled operations "
          f"(likely label noise); of the refused: {c['refused, request names no labelled op']}")
    print("commands run, by kind:", ", ".join(f"{k} {v}" for k, v in by_kind.most_common()))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
