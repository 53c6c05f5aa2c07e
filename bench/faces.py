"""Faces found by agent.perception.faces on real photos, against boxes labelled by hand.

    .venv/bin/python bench/faces.py

- With faces: scikit-image's astronaut and matplotlib's Grace Hopper (in this repository), and the
  musicians of gcompris-qt-data's explore_world_music activity (Debian package; photos from
  Wikimedia Commons, see bench/colour_sources.py). Each face a person can see was boxed by hand on a
  PNG of the photo; masked faces (the chorus in "italy") count, backs of heads do not.
- Without a face: every photo of gcompris' explore_monuments, explore_farm_animals and
  explore_world_animals activities over 300 pixels, and resources/library's photos without people.

A found face is right when its centre lies in a labelled box (or the labelled box's centre in it);
each label is matched once. Prints, per photo, what was found and missed; then recall, the faces
found in no label (false), and the time of find_faces at the photo's size and at 12 megapixels
(the object detector's pass included), against the object detector alone measured in the same run.
All of it was looked at while the thresholds were set: these are development figures.
"""

from __future__ import annotations

import io
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from colour_sources import gcompris, gcompris_file, gcompris_or_say, gcompris_paths  # noqa: E402

Box = tuple[int, int, int, int]

# photo -> the faces in it, boxed by hand (pixels of the photo as loaded: at most 1024 on its long side)
FACES: dict[str, list[Box]] = {
    "repo:resources/library/astronaut.jpg": [(173, 68, 280, 174)],
    "repo:bench/photos/grace_hopper.jpg": [(170, 130, 365, 335)],
    "repo:resources/library/astronaut_face.jpg": [(45, 60, 165, 185)],
    "music/australia.webp": [(304, 153, 388, 238)],
    "music/ireland.webp": [(87, 122, 129, 164), (408, 146, 447, 185), (659, 120, 705, 167), (900, 118, 950, 168)],
    "music/mexico.webp": [(125, 134, 179, 188), (354, 140, 422, 208), (633, 287, 697, 351), (710, 286, 773, 349),
                          (805, 289, 946, 430), (456, 228, 490, 264)],
    "music/italy.webp": [(314, 211, 371, 268), (415, 355, 475, 412), (568, 225, 630, 292), (655, 250, 720, 318),
                         (440, 290, 500, 350), (528, 211, 584, 267), (255, 231, 308, 285), (168, 222, 210, 264),
                         (215, 268, 250, 302), (25, 232, 57, 272)],
    "music/japan.webp": [(664, 378, 694, 410)],
    "music/africa.webp": [], "music/america.webp": [], "music/middleeast.webp": [],
}
NO_PEOPLE = ["blue_cat.jpg", "brick.jpg", "cat_and_coffee.jpg", "chelsea.jpg", "clock.jpg",
             "coffee.jpg", "grass.jpg", "gravel.jpg", "green_field.jpg", "motorcycle.jpg", "red_balloon.jpg",
             "rocket.jpg", "snowy_tree.jpg", "sunset.jpg", "two_cats.jpg"]


def _load(name: str) -> np.ndarray:
    from PIL import Image

    if name.startswith("repo:"):
        return np.asarray(Image.open(os.path.join(HERE, "..", name[5:])).convert("RGB"))
    data = gcompris_file("explore_world_music", name)  # as labelled: 1024 on its long side, not gcompris()'s 640
    return _fit(np.asarray(Image.open(io.BytesIO(data)).convert("RGB")))


def _fit(rgb: np.ndarray, side: int = 1024) -> np.ndarray:
    import cv2

    h, w = rgb.shape[:2]
    if max(h, w) <= side:
        return rgb
    f = side / max(h, w)
    return cv2.resize(rgb, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)


def _in(box: Box, other: Box) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return other[0] <= cx <= other[2] and other[1] <= cy <= other[3]


def score(found: list[Box], labels: list[Box]) -> tuple[int, int]:
    """(right, false): each found box matched to an unmatched label it is centred in (or that is centred in it)."""
    free = list(labels)
    right = 0
    for box in found:
        match = next((lab for lab in free if _in(box, lab) or _in(lab, box)), None)
        if match is not None:
            free.remove(match)
            right += 1
    return right, len(found) - right


def negatives() -> list[tuple[str, np.ndarray]]:
    from PIL import Image

    out = []
    for activity in ("explore_monuments", "explore_farm_animals", "explore_world_animals"):
        for path in sorted(gcompris_paths(activity)):
            if not path.lower().endswith((".jpg", ".jpeg", ".png", ".webp")):
                continue
            try:
                img = gcompris(f"{activity}/{path}")
            except (OSError, ValueError):
                continue
            if max(img.shape[:2]) >= 300:
                out.append((f"{activity}/{path}", img))
    for name in NO_PEOPLE:
        path = os.path.join(HERE, "..", "resources", "library", name)
        if os.path.exists(path):
            out.append((f"library/{name}", np.asarray(Image.open(path).convert("RGB"))))
    return out


def main() -> int:
    if not gcompris_or_say():
        return 1
    from agent.perception.faces import find_faces
    from agent.perception.models import clear_forward_cache, detect_objects

    find_faces(_load("repo:resources/library/astronaut.jpg"))  # the models loaded, not timed
    right = labelled = false = 0
    times, detector = [], []
    print("photos with faces (labelled by hand):")
    for name, labels in FACES.items():
        img = _load(name)
        clear_forward_cache()
        t = time.perf_counter()
        found = [f.box for f in find_faces(img)]
        times.append(time.perf_counter() - t)
        clear_forward_cache()
        t = time.perf_counter()
        detect_objects(img, min_score=0.3)
        detector.append(time.perf_counter() - t)
        r, f = score(found, labels)
        right, labelled, false = right + r, labelled + len(labels), false + f
        print(f"  {name:40s} {img.shape[1]}x{img.shape[0]}  labelled {len(labels):2d}  found right {r:2d}  false {f}")
    neg = negatives()
    false_neg = 0
    for name, img in neg:
        found = find_faces(img)
        false_neg += len(found)
        if found:
            print(f"  no face in {name}, found {[(f.box, round(f.score, 2)) for f in found]}")
    print(f"\nfaces found: {right}/{labelled} ({right / max(1, labelled):.1%}); false in the photos with faces: {false}; "
          f"false in {len(neg)} photos without a face: {false_neg}")
    print(f"time at the photos' sizes: median {statistics.median(times) * 1000:.0f} ms "
          f"(object detector alone {statistics.median(detector) * 1000:.0f} ms, ratio "
          f"{statistics.median(times) / statistics.median(detector):.2f})")
    import cv2

    big = cv2.resize(_load("music/mexico.webp"), (4000, 2656), interpolation=cv2.INTER_CUBIC)
    clear_forward_cache()
    t = time.perf_counter()
    n = len(find_faces(big))
    t12 = time.perf_counter() - t
    clear_forward_cache()
    t = time.perf_counter()
    detect_objects(big, min_score=0.3)
    d12 = time.perf_counter() - t
    print(f"12 MP (mexico 4000x2656): {t12 * 1000:.0f} ms, {n} faces (object detector alone {d12 * 1000:.0f} ms, "
          f"ratio {t12 / d12:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
