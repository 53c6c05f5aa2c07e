"""False findings after global edits on real photos: ``python bench/explain_global.py [-v] [--part dev|held]``.

A global edit (brightness, contrast, saturation, warmth, hue, sharpen, blur, black and white,
auto enhance, a colour tint, two of them in a row, a small rotation) changes every pixel by the
same rule, so nothing was added, removed, moved or recoloured anywhere. Any local finding
(``object_added``, ``object_removed``, ``object_moved``, ``object_recolored``, ``region_changed``:
"a white object was added at the bottom", "something changed at the top left") in the explanation
of such a pair is false. The target (issue 30, item 4) is none.

Photos (real, redistributable, offline, Debian packages):

- development part: the 19 photos of ``lomiri-wallpapers-16.04`` in /usr/share/backgrounds
  (a bridge, a dragonfly, a fossa, the sea, a nuthatch, paints, a wine glass, mountains, people,
  a sunset, a street in India...; each file names its photographer; CC BY-SA per the package's
  copyright file). The fixes of the explainer were made looking at this part only.
- held-out part: the 12 nature photos of ``mate-backgrounds`` (bench/photoset.py's PHOTOS2), not
  looked at while fixing, printed as a count only.
- fresh part (``--part fresh``): the 11 photos of ``plasma-workspace-wallpapers`` that
  bench/described_photos.py lists (water, cups, leaves, a kite, a path...; GPL-2+), which no
  explainer work ever ran on; added after the fixes, run once, printed as a count only.

Each photo is scaled to at most 1600 pixels a side (the explainer works on 640-pixel copies; the
operation runs on the 1600-pixel photo as Easel runs it on the full one), every operation is run
once on it with amounts drawn from a fixed seed, and the explanation is checked. Per-pair lines
for false findings (and with ``-v`` all).

    OMP_NUM_THREADS=1 .venv/bin/python bench/explain_global.py --part dev   # or held, or both

Figures (seed 0; pairs with a false local finding, and false local findings): dev 9/323 (15), held
out 2/204 (3) before agent/explain/colour_lut.py; dev 2/323 (2), held out 1/204 (2) with it. The
two left on dev are on the paint-strokes picture, which is rendered rather than photographed: an
auto-enhanced one ("a skyblue object was added") and a rotated one that could not be aligned ("these
look like different pictures").

The fresh part, run once blind after those fixes: 2/187 pairs (4 false findings): an auto-enhanced
path under trees ("something changed at the top left / top right / top": the bright sky through
the leaves has colours the rest of the picture lacks, and the cubic fallback missed the levels
clip) and a rotated photo of cups ("something changed at the bottom": a cup's inside 14.6 L*
lighter after the alignment). Looked at, so the fresh part is a development part from then on.
With each channel's own map as a second fallback (agent/explain/colour_lut.py): fresh 1/187 (1,
the cups), dev 2/323 (2) and held out 1/204 (2) unchanged; bench/explain.py --pairs 150 --no-12mp
prints the same figures line for line before and after (kinds exact 98.7%, pasted objects found
11/12, remove/background 100%).
Then a changed pixel after a rotation or scale (not a quarter turn) must survive a one-pixel shift
of the prediction (the angle is estimated to a fraction of a degree; far from the centre an edge
sat a pixel off): fresh 0/187, held out 1/204 -> 0/204 (not looked at: blind), dev 2/323 (the two
on the rendered paint-strokes picture); bench/explain.py --pairs 150 --no-12mp again line for line
the same. Real photos of every part: no false local finding in 306 + 204 + 187 pairs.
"""

from __future__ import annotations

import argparse
import collections
import glob
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

LOMIRI = "/usr/share/backgrounds"
SIDE = 1600

OPS = ("brightness", "darken", "contrast", "flatten", "saturation", "desaturate", "warmth", "cool", "hue",
       "sharpen", "blur", "grayscale", "auto_enhance", "tint", "brightness+contrast", "warmth+saturation",
       "rotate")
LOCAL = {"object_added", "object_removed", "object_moved", "object_recolored", "region_changed"}


def dev_paths() -> list[str]:
    return sorted(glob.glob(os.path.join(LOMIRI, "*_by_*.jpg")))


def held_paths() -> list[str]:
    import photoset
    return [os.path.join(photoset.MATE_DIR, f"{p.name}.jpg") for p in photoset.PHOTOS2]


def fresh_paths() -> list[str]:
    import described_photos
    return [p for p in (described_photos.path_of(n) for n in described_photos.PLASMA) if p]


def load(path: str) -> np.ndarray:
    import cv2
    img = cv2.cvtColor(cv2.imread(path, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    s = SIDE / max(img.shape[:2])
    if s < 1:
        img = cv2.resize(img, (round(img.shape[1] * s), round(img.shape[0] * s)), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(img)


def global_edit(name: str, rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """``img`` after the global edit ``name`` with amounts from ``rng``."""
    from editor import adjust, ops

    def amt(lo, hi):
        return round(float(rng.uniform(lo, hi)))

    if "+" in name:
        for part in name.split("+"):
            img = global_edit(part, rng, img)
        return img
    return {
        "brightness": lambda: ops.adjust_brightness(img, amount=amt(10, 40)),
        "darken": lambda: ops.adjust_brightness(img, amount=-amt(10, 40)),
        "contrast": lambda: ops.adjust_contrast(img, amount=amt(10, 50)),
        "flatten": lambda: ops.adjust_contrast(img, amount=-amt(10, 50)),
        "saturation": lambda: adjust.adjust_saturation(img, amount=amt(15, 70)),
        "desaturate": lambda: adjust.adjust_saturation(img, amount=-amt(15, 70)),
        "warmth": lambda: adjust.adjust_warmth(img, amount=amt(15, 80)),
        "cool": lambda: adjust.adjust_warmth(img, amount=-amt(15, 80)),
        "hue": lambda: adjust.adjust_hue(img, degrees=amt(10, 120)),
        "sharpen": lambda: adjust.adjust_sharpness(img, amount=amt(20, 100)),
        "blur": lambda: adjust.adjust_sharpness(img, amount=-amt(15, 80)),
        "grayscale": lambda: adjust.grayscale(img),
        "auto_enhance": lambda: adjust.auto_enhance(img),
        "tint": lambda: ops.adjust_color(img, color=("red", "orange", "green", "blue", "skyblue", "purple",
                                                      "brown", "yellow", "pink")[int(rng.integers(9))],
                                         intensity=round(float(rng.uniform(0.1, 0.4)), 2)),
        "rotate": lambda: ops.rotate(img, degrees=float(amt(3, 15) if rng.random() < 0.5 else 360 - amt(3, 15))),
    }[name]()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--part", choices=("dev", "held", "fresh", "both"), default="dev")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    import cv2
    import torch

    from agent.explain.engine import explain_images

    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    parts = {"dev": dev_paths, "held": held_paths, "fresh": fresh_paths}
    wanted = ("dev", "held") if args.part == "both" else (args.part,)
    for part in wanted:
        paths = [p for p in parts[part]() if os.path.exists(p)]
        if not paths:
            print(f"{part}: no photos (apt-get install lomiri-wallpapers-16.04 mate-backgrounds "
                  "plasma-workspace-wallpapers)", file=sys.stderr)
            return 2
        rng = np.random.default_rng(args.seed)
        per_op: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
        said: collections.Counter = collections.Counter()
        times = []
        for path in paths:
            img = load(path)
            for name in OPS:
                after = global_edit(name, rng, img)
                t = time.perf_counter()
                exp = explain_images(img, after)
                times.append(time.perf_counter() - t)
                false = [f for f in exp.findings if f.kind in LOCAL]
                per_op[name][0] += 1
                per_op[name][1] += bool(false)
                said.update(f.kind for f in false)
                if part == "dev" and (false or args.verbose):
                    print(f"{name:20s} {os.path.basename(path)[:28]:28s} {'FALSE' if false else 'ok   '} "
                          f"{[f.kind for f in exp.findings]} " + " | ".join(f.sentence for f in false))
        n = sum(r[0] for r in per_op.values())
        bad = sum(r[1] for r in per_op.values())
        print(f"\n[{part}] {len(paths)} photos")
        if part == "dev":
            print(f"{'operation':<24}{'pairs':>6}{'false':>7}")
            for name, (k, f) in per_op.items():
                print(f"{name:<24}{k:>6d}{f:>7d}")
            print(f"false local findings by kind: {dict(said)}")
        print(f"{'pairs of a global edit':<46}{n:>6d}")
        print(f"{'pairs with a false local finding':<46}{bad:>6d}/{n}")
        print(f"{'false local findings':<46}{sum(said.values()):>6d}")
        print(f"{'explain latency (1600 px), median / max s':<46}{np.median(times):>6.2f} / {max(times):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
