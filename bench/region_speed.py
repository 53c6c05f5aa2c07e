"""How long an edit of an object region takes on a 12-megapixel photo, stage by stage (issue 28).

    python bench/region_speed.py [--repeat N] [--rounds R]

"brighten the cat", "make everything except the cat black and white" on a 4000x3000 photo (the cat
of scikit-image's chelsea pasted on a meadow, as bench/pointsay.py's timing), through
``agent.edits.run.run``, the way the dialogue runs them. The machine is shared (2 cores, other
jobs come and go), so every figure is printed beside references timed in the same rounds,
interleaved with it, and as a ratio to them:

- ``whole picture``: brightness +20 on the whole photo (``editor.ops.adjust_brightness``);
- ``blur``: a Gaussian blur (sigma 5) of the photo's luma with OpenCV, a fixed amount of CPU work
  that no code of Easel's touches.

Four states of the caches: ``first look`` (nothing known about the pixels: the detector, u2netp
and the mask all run), ``perceived`` (the detector's output is kept, as when the app perceived the
version on opening it: agent.perception.models keeps its outputs by their input), ``masked ahead``
(``agent.edits.regions.prepare`` ran, as the app does on a thread when a photo is opened) and
``again`` (the same object on the same pixels: only the blend runs). The stages of a first look are timed
by wrapping the functions that do them: hashing the pixels, the detector's forward pass, the
small copy u2netp is shown, u2netp itself, the feathered mask, the operation and the blend.

To compare two versions of the code, copy this file into the other checkout's bench/ and run
both, one after the other, in the same minutes; the load average printed says how busy it was.

Figures (seconds, median of 4; in brackets the ratio to the blur), main's code before the session
that added this file and after it, run alternately twice (before, after, before, after) at load
1.5-3.0 (another helper's pytest, then bench/conversations.py, held one core):

=============================  ==========================  ==========================
                               before                      after
=============================  ==========================  ==========================
the cat: first look            0.80 (15.9), 0.93 (13.3)    0.76 (13.6), 0.72 (13.4)
the cat: masked ahead          (no such step)              0.09 (1.6), 0.08 (1.6)
the cat: again                 0.14 (2.8), 0.14 (2.0)      0.08 (1.4), 0.08 (1.5)
except the cat: first look     0.84 (16.8), 1.12 (16.1)    0.85 (15.3), 0.72 (13.4)
except the cat: masked ahead   (no such step)              0.13 (2.3), 0.13 (2.4)
except the cat: again          0.26 (5.2), 0.27 (3.9)      0.12 (2.2), 0.12 (2.3)
=============================  ==========================  ==========================

By stage, first look (the first pair of runs): hashing the pixels 0.039 -> 0.020 s; black and
white 0.071 -> 0.007 s on the cat's box and 0.230 -> 0.020 s on the whole photo (everything
except the cat); the blend with it 0.25-0.28 -> 0.07 s; u2netp 0.24-0.52 s in either, with the
other jobs (0.23 s on an idle machine; 0.5-0.6 s while another process holds one core, spinning
threads or not; 1.0-1.4 s at load 6), the detector 0.06-0.09 s. At load 4 (two other helpers'
jobs) the first look went 1.43 -> 1.11 s for the cat (16.1 -> 10.2 blurs) and 1.61 -> 1.36 s for
everything except it (18.2 -> 12.5): the spinning threads cost most when the cores are shared.
u2netp is now most of a first look; the app masks the largest objects of a photo ahead when it
is opened, which leaves the blend.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
import pointsay as P  # noqa: E402
import regions as R  # noqa: E402

from agent.edits import regions as where  # noqa: E402
from agent.edits.run import run  # noqa: E402
from agent.grammar.commands import parse_command  # noqa: E402
from agent.perception import models as perception_models  # noqa: E402
from agent.perception import things  # noqa: E402
from editor import adjust, masks, ops  # noqa: E402

STAGES: dict[str, float] = {}


def _timed(module, name: str, label: str) -> None:
    """Wrap ``module.name`` so that its time adds to ``STAGES[label]``."""
    fn = getattr(module, name, None)
    if fn is None:
        return

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        t = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            STAGES[label] = STAGES.get(label, 0.0) + time.perf_counter() - t

    setattr(module, name, wrapper)


def _forget(keep_detector: bool) -> None:
    forward = getattr(perception_models, "_forwarded", None)  # absent before the detector kept its outputs
    kept = dict(forward) if keep_detector and forward is not None else None
    where.clear_cache()
    if kept is not None:
        forward.update(kept)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3, help="runs of each edit per round")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()

    for module, name, label in [(where, "pixels_key", "hash the pixels"),
                                (things, "detect_objects", "detector"),
                                (ops, "mask_input", "u2netp's small copy"),
                                (ops, "predict_mask_small", "u2netp"),
                                (where, "_feathered", "feathered mask"),
                                (adjust, "grayscale", "the operation (grayscale)"),
                                (masks, "apply_in_region", "blend (with the operation)")]:
        _timed(module, name, label)

    rng = np.random.default_rng(5)
    small, _ = P.paste(R.fit(R.photo("GreenMeadow")), "chelsea", 0.6, 0.5, rng)
    photo = cv2.resize(small, (4000, 3000), interpolation=cv2.INTER_CUBIC)
    luma = cv2.cvtColor(photo, cv2.COLOR_RGB2GRAY).astype(np.float32)
    whole = parse_command("adjust_attr brightness 20")
    edits = {"the cat": parse_command("grayscale in the cat"),
             "except the cat": parse_command("grayscale in everything except the cat")}

    def reference_whole():
        run(whole, photo)

    def reference_blur():
        cv2.GaussianBlur(luma, (0, 0), 5)

    for cmd in edits.values():  # models loaded, numba compiled, once
        run(cmd, photo)
    times: dict[str, list[float]] = {}
    stages: dict[str, list[float]] = {}
    loads = []
    for _ in range(args.rounds):
        loads.append(os.getloadavg()[0])
        for _ in range(args.repeat):
            for label, fn in (("whole picture (reference)", reference_whole), ("blur (reference)", reference_blur)):
                t = time.perf_counter()
                fn()
                times.setdefault(label, []).append(time.perf_counter() - t)
            for name, cmd in edits.items():
                for state in ("first look", "perceived", "masked ahead", "again"):
                    if state == "first look":
                        _forget(keep_detector=False)
                    elif state == "perceived":
                        _forget(keep_detector=True)
                    elif state == "masked ahead":
                        if not hasattr(where, "prepare"):
                            continue
                        _forget(keep_detector=False)
                        where.prepare(photo)  # the app's thread on opening the photo, before the request
                    STAGES.clear()
                    t = time.perf_counter()
                    run(cmd, photo)
                    times.setdefault(f"{name}: {state}", []).append(time.perf_counter() - t)
                    if state == "first look":
                        for k, v in STAGES.items():
                            stages.setdefault(f"{name}: {k}", []).append(v)
    busy = subprocess.run(["ps", "-eo", "pcpu,args", "--sort=-pcpu"], capture_output=True, text=True).stdout
    others = [" ".join(line.split()[:4])[:90] for line in busy.splitlines()[1:6] if float(line.split()[0]) >= 10]
    print(f"code: {Path(__file__).resolve().parent.parent}")
    print(f"load average (1 min) at each round: {', '.join(f'{v:.1f}' for v in loads)} on {os.cpu_count()} cores")
    print("busiest processes at the end: " + ("; ".join(others) or "none over 10% CPU"))
    ref_w = statistics.median(times["whole picture (reference)"])
    ref_b = statistics.median(times["blur (reference)"])
    print(f"\n{'median of ' + str(args.rounds * args.repeat) + ' runs':42s} {'seconds':>8s} {'/ whole':>8s} {'/ blur':>8s}")
    for label, v in times.items():
        m = statistics.median(v)
        print(f"{label:42s} {m:8.3f} {m / ref_w:8.1f} {m / ref_b:8.2f}")
    print("\nfirst look, by stage (median seconds):")
    for label, v in stages.items():
        print(f"  {label:55s} {statistics.median(v):6.3f}")


if __name__ == "__main__":
    main()
