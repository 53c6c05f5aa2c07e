"""How long a trace caption takes on a 12-megapixel photo: ``python bench/trace_latency.py [--rounds 5]``.

Two real photos of lomiri-wallpapers-16.04 (``apt-get install lomiri-wallpapers-16.04``): the
dragonfly (4224x3168) and the wine table (2560x3837), each cropped to 4:3 (3:4) and resized to
4000x3000 (3000x4000), 12 megapixels. A trace of two dwells (the main thing, then a second place)
is captioned ``--rounds`` times after one warm-up call that loads the models; the median and the
maximum of all rounds are printed with the machine's load (``uptime``), as the figures depend on it.
Threads as the app runs them (both cores).

    .venv/bin/python bench/trace_latency.py
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PHOTOS = {  # file, (box of the thing traced first, box of the second), normalised
    "Dragonfly_by_Bolly": ((0.45, 0.3, 0.8, 0.55), (0.05, 0.6, 0.35, 0.95)),
    "Wine_by_Jakkub_Mede": ((0.3, 0.5, 0.8, 0.95), (0.35, 0.1, 0.55, 0.35)),
}


def twelve_mp(path: str) -> np.ndarray:
    import cv2
    img = cv2.cvtColor(cv2.imread(path, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    h, w = img.shape[:2]
    if w >= h:
        cw, ch = min(w, h * 4 // 3), min(h, w * 3 // 4)
        size = (4000, 3000)
    else:
        cw, ch = min(w, h * 3 // 4), min(h, w * 4 // 3)
        size = (3000, 4000)
    x, y = (w - cw) // 2, (h - ch) // 2
    return np.ascontiguousarray(cv2.resize(img[y:y + ch, x:x + cw], size, interpolation=cv2.INTER_CUBIC))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    from agent.describe.caption import caption_trace
    from agent.describe.traces import synthetic_trace, to_ln

    times = []
    for name, boxes in PHOTOS.items():
        path = f"/usr/share/backgrounds/{name}.jpg"
        if not os.path.exists(path):
            print(f"{path} is missing: apt-get install lomiri-wallpapers-16.04", file=sys.stderr)
            return 2
        img = twelve_mp(path)
        trace = to_ln(synthetic_trace(list(boxes), rng=np.random.default_rng(0), jitter=0.01))
        cap = caption_trace(img, trace)  # warm-up: models load
        for _ in range(args.rounds):
            t = time.perf_counter()
            cap = caption_trace(img, trace)
            times.append(time.perf_counter() - t)
        print(f"{name} {img.shape[1]}x{img.shape[0]}: {cap.text}")
    print(f"{'trace caption latency (12 MP), median / max s':<48}{np.median(times):>6.2f} / {max(times):.2f}")
    print("load:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
