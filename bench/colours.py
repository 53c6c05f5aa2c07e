"""How often Easel names an object's colour as a person would, on crops of real photos labelled by hand.

The crops (``bench/colour_labels.json``, 215 of them) are boxes on the real photos of
bench/photoset.py: scikit-image's astronaut, coffee, chelsea, both stereo motorcycle views, rocket
and camera man; scikit-learn's china and flower; the nature photos of the Debian package
mate-backgrounds (``apt-get install mate-backgrounds``). They are the hand-labelled boxes of
bench/photoset.py (things and regions) and segments of a Felzenszwalb segmentation at two scales
(objects and parts of objects: a helmet, a motorcycle's tank, a cup's handle, petals, a ladybird,
the cat's eye, a temple roof, leaves, sky, planks). Each crop was looked at on contact sheets (the
box alone, scaled to 190 pixels) before any colour code ran on it, and given the basic colour term a
person would use for the main thing in it, or two where it is between two ("brown"/"orange" for
the wooden table, "red"/"orange" for the marigold's petals); crops with no main thing or two
things of different colours were left out. Persons (``"label": "person"``) are labelled by their
clothes. The photos of the painting in mate-backgrounds (Elephants) were left out: not a photo.

Split by photo: chelsea, moto_right, china, Garden, RainDrops and Wood (74 crops) are held out and
never tuned on nor printed crop by crop; the other 141 crops are the development part.

Measured: :func:`agent.perception.naming.object_colour` (the colour a caption gives a thing in
that box) is right when it is one of the crop's words. Printed per part; for the development part
also the confusions, and with ``-v`` each wrong crop.

    OMP_NUM_THREADS=1 .venv/bin/python bench/colours.py [-v]

Figures (dev, held-out): 0.652 (92/141), 0.378 (28/74) with the colour naming before
agent/perception/colour_terms.py (nearest of 13 reference colours to the largest k-means
cluster in OpenCV's 8-bit Lab: greens "yellow", blues "grey", yellows "orange"); 0.830 (117/141),
0.581 (43/74) with basic terms bounded in CIELAB's lightness, chroma and hue, a coloured cluster
weighted up and the white-patch balance. An intermediate setting (white patch up to chroma 20, a
coloured cluster weighted 1.5) scored 0.816 dev and 0.662 held-out; the choice was made on the
development figures (the sky was taken for a white patch there), and the held-out figure was
seen, not tuned on. Then 0.830, 0.554 with the white patch only from L* 85 up (chosen on
bench/trace.py's development set: a light wall behind a person was balanced away); and 0.844
(119/141), 0.662 (49/74) with orange needing chroma 35 (chosen on the development part: 117 with
no such bound, 119 at 35 and 40).
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

LABELS = Path(__file__).resolve().parent / "colour_labels.json"
# basic colour terms Easel may say that are the same as a labelled word
SAME = {"skyblue": "blue", "gray": "grey"}


def crops() -> list[dict]:
    return json.loads(LABELS.read_text())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    import cv2
    import photoset

    from agent.perception.naming import object_colour

    cv2.setNumThreads(1)
    if not photoset.photos2_present():
        print(f"skipped: {photoset.MATE_DIR} is missing (apt-get install mate-backgrounds)")
        return 1
    rows = crops()
    cache: dict[str, np.ndarray] = {}
    results = collections.defaultdict(list)
    confusions: collections.Counter = collections.Counter()
    times = []
    for i, r in enumerate(rows):
        img = cache.setdefault(r["photo"], photoset.load(r["photo"]))
        t = time.perf_counter()
        said = object_colour(img, tuple(r["box"]), r["label"])
        times.append(time.perf_counter() - t)
        said = SAME.get(said, said)
        ok = said in r["words"]
        results[r["split"]].append(ok)
        if r["split"] == "dev" and not ok:
            confusions[(r["words"][0], said)] += 1
            if args.verbose:
                print(f"dev {i:3d} {r['photo']:12s} {r['box']} truth={'/'.join(r['words'])} said={said}")
    for split in ("dev", "held-out"):
        ok = results[split]
        print(f"{'colour named right, ' + split:<40}{np.mean(ok):>8.3f}  ({sum(ok)}/{len(ok)})")
    print("development confusions (truth -> said):",
          ", ".join(f"{a}->{b} {n}" for (a, b), n in confusions.most_common()))
    print(f"median s a crop: {np.median(times):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
