"""CAISE's validation requests through the whole assistant: ``python bench/caise_dialogue.py``.

``evaluate-commands`` scores the learned command model alone on ``md_valid.json``. The app does not
run the model alone: the request rules (:mod:`agent.language.reader`) read a request first, the model's
reading is kept only above the confidence threshold and with words of its kind, and anything else
is refused or answered with a question. This script scores that whole path, per CAISE type, beside
the model alone measured in the same run, so a rule that hurts CAISE's own requests shows up here:
right (CAISE's rule), wrong (ran something else), refused (ran nothing).
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CAISE = Path(__file__).resolve().parents[2] / "shared" / "data" / "caise"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(CAISE / "md_valid.json"))
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--show", choices=["wrong", "refused"], help="print these requests")
    args = ap.parse_args()
    if not Path(args.data).exists():
        print(f"CAISE's validation split is not at {args.data}", file=sys.stderr)
        return 2
    import tempfile

    import numpy as np
    import torch

    torch.set_num_threads(2)
    from agent.dialogue.assistant import load_parser
    from agent.dialogue.manager import DialogueManager
    from editor.document import Document
    from editor.store import Store
    from training.commands_data import caise_match, find_concepts, gold_type, load_caise

    examples = load_caise(args.data, find_concepts(args.data))
    if args.limit:
        examples = examples[: args.limit]
    parser = load_parser()
    photo = Document.create(Store(Path(tempfile.mkdtemp(prefix="easel-caise-")) / "bench.db"),
                            np.full((64, 64, 3), 128, np.uint8), title="stand-in")
    counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    t0 = time.perf_counter()
    for ex in examples:
        # CAISE writes the assistant's acknowledgement after the request; the request is the last user line.
        last = max(i for i, line in enumerate(ex.history) if line.startswith("user_text:"))
        request = ex.history[last].split(":", 1)[1].strip()
        loaded = any(line.startswith("image_load") for line in ex.history[:last])
        manager = DialogueManager(photo if loaded else None, parser=parser,
                                  concepts=lambda doc, c=ex.concepts: c)
        manager.history = list(ex.history[:last])
        commands, _ = manager.read(request)
        pred = parser.predict(list(ex.history), ex.concepts)
        alone = pred.text
        sure = alone if pred.confidence >= manager.min_confidence else None
        kind = gold_type(ex.api)
        for group in (kind, "total"):
            c = counts[group]
            c["n"] += 1
            c["model alone"] += caise_match(alone, ex.api)
            c["model, sure"] += caise_match(sure, ex.api)
            c["model, sure, wrong"] += sure is not None and not caise_match(sure, ex.api)
            if not commands:
                c["refused"] += 1
            elif caise_match(commands[0].format(), ex.api):
                c["right"] += 1
            else:
                c["wrong"] += 1
        outcome = "refused" if not commands else ("right" if caise_match(commands[0].format(), ex.api) else "wrong")
        if args.show == outcome:
            print(f"[{outcome}] {request!r}: gold {ex.api!r}, assistant "
                  f"{'; '.join(c.format() for c in commands) or '-'}, model alone {alone!r}")
    print(f"\nCAISE {Path(args.data).name}: {len(examples)} requests in {time.perf_counter() - t0:.0f} s")
    print("model alone: its best reading of every request; model, sure: only those at the app's confidence\n"
          "threshold (the rest refused), as the app ran it before the request rules; assistant: the app now")
    print(f"{'type':14s}{'n':>6s}{'model alone':>13s}{'model, sure':>13s}{'(wrong)':>9s}{'assistant':>11s}"
          f"{'wrong':>8s}{'refused':>9s}")
    for kind, c in counts.items():
        n = c["n"]
        print(f"{kind:14s}{n:6d}{100 * c['model alone'] / n:12.1f}%{100 * c['model, sure'] / n:12.1f}%"
              f"{100 * c['model, sure, wrong'] / n:8.1f}%{100 * c['right'] / n:10.1f}%"
              f"{100 * c['wrong'] / n:7.1f}%{100 * c['refused'] / n:8.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
