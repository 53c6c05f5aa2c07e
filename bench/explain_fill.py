"""The explainer's fill evidence (agent/explain/fill.py) on removals Easel makes and on pasted patches.

    .venv/bin/python bench/explain_fill.py            # dev: bench/explain.py's 14 photos
    .venv/bin/python bench/explain_fill.py --held     # bench/explain_ops.py's 6 held-out photos

On each photo, 3 removals (a random box, masked and filled as ``remove`` does:
:func:`agent.edits.objects.removal_mask` and :func:`agent.edits.objects.inpaint`) and 3 patches of
other photos pasted (:func:`training.speaker_data.edit_added`) are explained; for every region the
rim and detail leave "added" or undecided (the only ones the evidence decides), the evidence
(texture + colour, or texture alone where colour cannot tell) is printed with its threshold:
pasted patches should score under it, removals over it.

Figures (the fill with its texture term at half weight, f215615; colour left out where it cannot
tell, texture alone then over 1.0): dev pasted 0 of 41 over (at most -0.08), removals 11 of 16;
held out pasted 0 of 13, removals 2 of 3. (Texture + colour everywhere: dev removals 14 of 16, but
an object moved within the grey camera photo read as two removals; held out a grass patch pasted on
grass read as a removal.)
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
        # (score, its threshold): texture + colour, or texture alone where colour cannot tell
        scores[current[0]].append(None if p is None else (p + c, F.FILLED) if c is not None else (p, F.FILLED_TEXTURE))
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
        got = [x for x in v if x is not None]
        over = sum(x > t for x, t in got)
        both = sorted(round(x, 2) for x, t in got if t == F.FILLED)
        alone = sorted(round(x, 2) for x, t in got if t != F.FILLED)
        print(f"{kind}: {len(v)} regions, {len(v) - len(got)} without evidence; {over} of {len(got)} over the "
              f"threshold (texture + colour over {F.FILLED}: {both}; texture alone over {F.FILLED_TEXTURE}: {alone})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
