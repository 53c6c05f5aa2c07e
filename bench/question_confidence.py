"""Where the answers to "is there a ...?" stop being sure: ``python bench/question_confidence.py``.

The detector's score of each thing it finds (down to 0.1) on real photos whose things were listed by
eye before this ran (the sample library's photos and, when installed, mate-backgrounds' nature
photos), each find counted true (the photo has one), false (it has none) or left out (a label the
list says is arguable: the table under a cup). Printed: for each score limit, the finds kept at it,
how many are false, and how many true things are lost below it. :data:`agent.describe.questions.SURE`
(said as seen) and :data:`~agent.describe.questions.UNSURE` (below: "I don't see ...", between:
"I think ..., but I'm not sure") are read from it: SURE the lowest limit above which no find is false,
UNSURE a limit under which false finds outnumber true ones.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ROOT = Path(__file__).resolve().parent.parent
# photo -> (COCO labels it shows, labels that are arguable and left out)
TRUTH = {
    "astronaut.jpg": ({"person"}, {"tie"}),
    "chelsea.jpg": ({"cat"}, {"bed", "couch"}),
    "coffee.jpg": ({"cup", "spoon"}, {"dining table", "bowl"}),
    "motorcycle.jpg": ({"motorcycle"}, {"chair", "bench", "bicycle"}),
    "rocket.jpg": (set(), set()),
    "cat_and_coffee.jpg": ({"cat", "cup", "spoon"}, {"dining table", "bowl"}),
    "two_cats.jpg": ({"cat"}, {"bed", "couch"}),
    "blue_cat.jpg": ({"cat"}, {"bed", "couch"}),
    "mate:LadyBird": (set(), {"potted plant"}),
    "mate:Garden": (set(), {"potted plant"}),
    "mate:YellowFlower": (set(), {"potted plant"}),
    "mate:Dune": (set(), set()),
    "mate:Storm": (set(), set()),
    "mate:Aqua": (set(), set()),
    "mate:TwoWings": (set(), {"potted plant"}),
    "mate:RainDrops": (set(), {"potted plant"}),
}


def main() -> int:
    from agent.describe.questions import SURE, UNSURE
    from agent.perception.things import detect
    from bench.conversations import photo_pixels

    finds = []  # (score, true?, photo, label)
    for photo, (present, arguable) in TRUTH.items():
        try:
            pixels = photo_pixels(photo)
        except FileNotFoundError:
            continue
        for d in detect(pixels, min_score=0.1):
            if d.label in arguable:
                continue
            finds.append((d.score, d.label in present, photo, d.label))
    finds.sort(reverse=True)
    print(f"{len(finds)} finds on {len(TRUTH)} photos (score, true/false, photo, label):")
    for score, true, photo, label in finds:
        print(f"  {score:.2f} {'true ' if true else 'FALSE'} {photo} {label}")
    truths = sum(t for _, t, _, _ in finds)
    print("\nlimit  kept  false  true lost")
    for limit in (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7):
        kept = [t for s, t, _, _ in finds if s >= limit]
        print(f" {limit:.2f} {len(kept):5d} {kept.count(False):6d} {truths - kept.count(True):6d}")
    print(f"\nin use: SURE {SURE}, UNSURE {UNSURE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
