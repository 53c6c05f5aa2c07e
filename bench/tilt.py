"""Measure the tilt ("is it crooked?", "straighten it"): level real photos are to be left level, and
the same photos turned by a known angle are to be levelled, or said to be beyond telling.

    python bench/tilt.py [--part dev|held|both] [--show]

Photos: gcompris-qt-data's explore_monuments, explore_world_animals, explore_farm_animals and
explore_world_music photos (each photo's author and licence in the README beside it in the
activity's resources; bench/colour_sources.py reads them, 640 pixels on the long side). Each was
looked at through a 50-pixel grid before this bench was run: none shows a horizon or an upright
tilted by a degree or more, so each is taken as level. The held-out part (:data:`HELD`, the names
other benches keep apart too) is measured only for the record, never looked at to set a threshold.

For each photo: the photo itself, and the photo turned counter-clockwise by each of :data:`TURNS`
degrees and cropped to the largest upright rectangle (no corners: a photo taken crooked has none).
What :func:`agent.edits.straighten.level` answers is one of

- right: the photo is level and it says so or cannot tell, or it was turned and the rotation it
  makes leaves it within :data:`CLOSE` degrees of level;
- can't tell: a turned photo it makes no rotation for (no line to judge by, or a line tilted more
  than a crooked horizon is): not levelled, but no harm done;
- wrong: a rotation that leaves the photo more than :data:`CLOSE` degrees off level (a level photo
  turned, a turned one turned by the wrong amount), or a turned photo said to be level.

Printed per part: right, can't tell and wrong on the level photos and on the turned ones, and the
time of a 12-megapixel photo's measure beside a 12-megapixel ``cv2.cvtColor`` to grey in the same
run. ``--show`` prints each wrong answer.

Figures (2026-11-30). The length-weighted median of every long near-horizontal line (before): dev
(67 photos) level right 62.7%, wrong 37.3%; turned right 13.4%, can't tell 48.8%, wrong 37.8%; held
(15) level right 66.7%, wrong 33.3%; turned right 7.8%, can't tell 42.2%, wrong 50.0%. The uprights,
else a horizon, each only when most of its lines agree (agent.perception.measure._tilt, set on dev):
dev level right 100%; turned right 7.0%, can't tell 93.0%, wrong 0%; held level right 100%; turned
can't tell 100%, wrong 0%. Tried on dev and not kept: a structure-tensor histogram of edge
orientations (at best 29 of 402 turned levelled with 10 wrong) and two of four estimates agreeing
(69 of the 402 levelled, 90 turned wrong and 15 level photos turned). 12 MP: measure 128 ms beside cv2.cvtColor's 6 ms.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

TURNS = (-5.0, -3.0, -1.5, 1.5, 3.0, 5.0)
CLOSE = 0.5  # degrees: a photo this near level looks level
ACTIVITIES = ("explore_monuments", "explore_world_animals", "explore_farm_animals", "explore_world_music")
HELD = ("gatewayofIndia", "mysorePalace", "victoriaMemorial", "chichenItza", "colosseum", "crocodile", "koala",
        "hedgehog", "narwhal", "scarlet_macaw", "cow", "horse", "sheep", "italy", "mexico")


def photos(part: str) -> list[str]:
    from colour_sources import gcompris_paths

    found = []
    for activity in ACTIVITIES:
        for path in sorted(gcompris_paths(activity)):
            name = Path(path).stem
            if not path.endswith(".webp") or "/" not in path or name in ("background", "tux"):
                continue
            if (name in HELD) == (part == "held"):
                found.append(f"gcompris:{activity}/{path}")
    return found


def turned(rgb: np.ndarray, degrees: float) -> np.ndarray:
    """``rgb`` turned counter-clockwise by ``degrees`` and cropped to no corners, as a crooked photo."""
    from agent.edits.run import execute
    from agent.grammar.commands import Rotate

    return execute(Rotate(degrees % 360, crop=True), rgb)[..., :3]


def judged(rgb: np.ndarray, truth: float) -> tuple[str, float | None]:
    """("right" | "can't tell" | "wrong", the rotation made or None) for a photo tilted ``truth``
    degrees counter-clockwise."""
    from agent.edits.straighten import level

    rotation, _ = level(rgb)
    if rotation is None:
        return ("right" if truth == 0 else "can't tell"), None
    made = rotation.degrees if rotation.degrees <= 180 else rotation.degrees - 360
    return ("right" if abs(truth + made) <= CLOSE else "wrong"), made


def main() -> None:
    from colour_sources import load

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--part", choices=["dev", "held", "both"], default="dev")
    ap.add_argument("--show", action="store_true", help="print each wrong answer")
    args = ap.parse_args()
    parts = ["dev", "held"] if args.part == "both" else [args.part]
    for part in parts:
        names = photos(part)
        tally = {"level": {"right": 0, "can't tell": 0, "wrong": 0}, "turned": {"right": 0, "can't tell": 0, "wrong": 0}}
        for name in names:
            rgb = load(name)
            for truth in (0.0, *TURNS):
                pic = rgb if truth == 0 else turned(rgb, truth)
                verdict, made = judged(pic, truth)
                tally["level" if truth == 0 else "turned"][verdict] += 1
                if args.show and verdict == "wrong":
                    print(f"  {name.split('/')[-1]:32s} tilted {truth:+.1f}: turned {made:+.1f}")
        print(f"{part}: {len(names)} photos")
        for kind, t in tally.items():
            n = sum(t.values())
            unsure = t["can't tell"]
            print(f"  {kind:7s} n={n:4d}  right {t['right'] / n:6.1%}  can't tell {unsure / n:6.1%}  wrong {t['wrong'] / n:6.1%}")
    big = cv2.resize(load(photos("dev")[0]), (4000, 3000), interpolation=cv2.INTER_CUBIC)
    from agent.perception import measure

    t0 = time.perf_counter()
    measure.measure(big)
    t_measure = time.perf_counter() - t0
    t0 = time.perf_counter()
    cv2.cvtColor(big, cv2.COLOR_RGB2GRAY)
    t_ref = time.perf_counter() - t0
    print(f"12 MP: measure {t_measure * 1000:.0f} ms, cv2.cvtColor to grey {t_ref * 1000:.1f} ms "
          f"(x{t_measure / max(t_ref, 1e-9):.0f})")


if __name__ == "__main__":
    main()
