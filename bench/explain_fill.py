"""The explainer's fill evidence (agent/explain/fill.py) on removals Easel makes and on pasted patches.

    .venv/bin/python bench/explain_fill.py            # dev: bench/explain.py's 14 photos
    .venv/bin/python bench/explain_fill.py --held     # bench/explain_ops.py's 6 held-out photos

On each photo, 3 removals (a random box, masked and filled as ``remove`` does:
:func:`agent.edits.objects.removal_mask` and :func:`agent.edits.objects.inpaint`) and 3 patches of
other photos pasted (:func:`training.speaker_data.edit_added`) are explained; for every region the
rim and detail leave "added" or undecided (the only ones the evidence decides), the evidence
(texture + colour) is printed with the threshold ``FILLED``: pasted patches should score under it,
removals over it.

Figures with the exemplar fill of c8ae67e (EM voting, Poisson seam): dev pasted 0 of 41 over 0.1
(at most -0.08), removals 14 of 16 over; held out pasted 1 of 13 (grass on grass, 0.35), removals 2
of 3. With its texture term at half weight (f215615): dev the same counts (removals -0.83 to 3.08),
held out pasted 1 of 13 (0.35), removals 3 of 3.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import agent.explain.fill as F  # noqa: E402
from agent.edits import objects  # noqa: E402
from agent.explain import explain_images  # noqa: E402
from training.speaker_data import edit_added, load_bases  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--held", action="store_true", help="the held-out photos")
    args = ap.parse_args(argv)
    if args.held:
        from explain_ops import held_out_bases

        bases, rng = held_out_bases(), np.random.default_rng(11)
    else:
        bases, rng = load_bases(), np.random.default_rng(7)
    scores: dict[str, list] = {"removed": [], "added": []}
    current = [""]
    patches_of = F.fill_evidence

    def recorded(pred, a, box, mask):
        p, c = patches_of(pred, a, box, mask), F.colour_evidence(pred, a, box, mask)
        scores[current[0]].append(None if p is None or c is None else p + c)
        return p

    F.fill_evidence = recorded
    for name, img in bases.items():
        h, w = img.shape[:2]
        for _ in range(3):
            bw, bh = int(w * rng.uniform(.1, .25)), int(h * rng.uniform(.1, .25))
            x, y = int(rng.integers(0, w - bw)), int(rng.integers(0, h - bh))
            box = [x, y, x + bw, y + bh]
            try:
                after = objects.inpaint(img, objects.removal_mask(img, [box]))
            except ValueError:
                continue
            current[0] = "removed"
            explain_images(img, after, name_objects=False)
        others = [v for k, v in bases.items() if k != name]
        for _ in range(3):
            after, _truth = edit_added(rng, img, others)
            current[0] = "added"
            explain_images(img, after, name_objects=False)
    F.fill_evidence = patches_of
    for kind, v in scores.items():
        got = sorted(round(x, 2) for x in v if x is not None)
        over = sum(x > F.FILLED for x in got)
        print(f"{kind}: {len(v)} regions decided by the evidence, {len(v) - len(got)} without; "
              f"{over} of {len(got)} over {F.FILLED}: {got}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
