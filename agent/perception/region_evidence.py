"""Whether what a trace dwells on goes on beyond the dwell: the evidence, from colour alone, that a
dwell is on a region (the sky, a meadow, a floor) and not on a thing.

A region runs into the picture's edge: the sky goes up to the top edge, a floor down to the
bottom, a meadow that fills the photo to every edge. A thing the detector missed (a ladybird, a
flag, a drop of water) is bounded: what lies between it and each edge is something else. Measured on the hand-labelled
boxes of bench/photoset.py's two photo parts (the middle three fifths of each box, as a dwell):
the distance to the nearest edge (:func:`edge_distances`) is at most 10 for 16 of 36 regions (the
sky, the meadow, the leaves, the planks, a floor, table tops) and for no thing the detector misses
but a blurred guardrail (8.4) and a thin tower (7.0, already a region by its low contrast); the
cat, a person and a motorcycle (7.8-10.9) are found by the detector. Of those 16, only 2 (the sky
over the dunes, a floor) stood out by :func:`contrast_with_surroundings`; on the
traces of bench/trace.py --photos2 the test turned more region dwells from "an object" into an
area (a band of sea, a road, leaves behind raindrops). The same distances tell the sky (up to the
top edge, something else below) from planks that fill a photo, and ground under a horizon from
such a texture.
"""

from __future__ import annotations

import cv2
import numpy as np

# A dwell whose colours go on to an edge of the picture this closely is a region (see above).
GOES_ON = 10.0
# The sky goes up to the top edge this closely (the sky over the dunes 5.0, over the Summer Palace
# 2.3, over the camera man 7.7) with something else below it, this far (the dunes 92, the Summer
# Palace's trees 197, the camera man's grass 70); planks that fill a photo, whose dwell near their
# top was "the sky", differ from what is below them by 16.9, the sea under the dunes' sky is 38.7
# from what is above it.
SKY_UP = 16.0
HORIZON = 30.0
# A texture this alike to every edge it does not touch fills the picture (planks, a close-up of
# leaves): neither the sky nor the ground. Dwells on the planks' lower half, said "the ground",
# were 11.7-12.6 from what is above them and 2-5 from the other sides; the floor beside the
# motorcycle differs from what is above it by 17.5 and from the left by 112.
FILLS = 15.0


def edge_distances(rgb: np.ndarray, box: tuple[int, int, int, int]) -> dict[str, float | None]:
    """Per side ("left", "right", "top", "bottom"), how far what lies between ``box`` and that
    edge of the picture is from what is inside it: the distance of their median Lab colours plus
    the difference of their brightness spreads (texture). None for a side the box touches (less
    than 4 pixels to the edge)."""
    h, w = rgb.shape[:2]
    f = min(1.0, 256 / max(h, w))  # a quarter-megapixel copy is plenty for medians
    small = cv2.resize(rgb, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA) if f < 1 else rgb
    lab = cv2.cvtColor(np.ascontiguousarray(small), cv2.COLOR_RGB2LAB).astype(np.float32)
    sh, sw = lab.shape[:2]
    x1, y1 = min(sw - 1, int(box[0] * f)), min(sh - 1, int(box[1] * f))
    x2, y2 = max(x1 + 1, int(np.ceil(box[2] * f))), max(y1 + 1, int(np.ceil(box[3] * f)))

    def stats(part: np.ndarray) -> tuple[np.ndarray, float]:
        px = part.reshape(-1, 3)
        return np.median(px, 0), float(px[:, 0].std())

    m, s = stats(lab[y1:y2, x1:x2])
    out: dict[str, float | None] = {}
    for side, part in (("left", lab[y1:y2, :x1]), ("right", lab[y1:y2, x2:]),
                       ("top", lab[:y1, x1:x2]), ("bottom", lab[y2:, x1:x2])):
        if min(part.shape[:2]) < max(1, round(4 * f)):
            out[side] = None
            continue
        pm, ps = stats(part)
        out[side] = float(np.linalg.norm(pm - m)) + abs(ps - s)
    return out


def goes_on_to_an_edge(rgb: np.ndarray, box: tuple[int, int, int, int], far: float = GOES_ON) -> bool:
    """Whether what ``box`` shows goes on, alike, to some edge of the picture (a region)."""
    return any(d is not None and d <= far for d in edge_distances(rgb, box).values())


def sky_shaped(rgb: np.ndarray, box: tuple[int, int, int, int]) -> bool:
    """Whether ``box`` lies as the sky does: alike up to the top edge (or touching it), and
    something else below it (a horizon)."""
    d = edge_distances(rgb, box)
    return (d["top"] is None or d["top"] <= SKY_UP) and d["bottom"] is not None and d["bottom"] > HORIZON


def fills_the_picture(rgb: np.ndarray, box: tuple[int, int, int, int], far: float = FILLS) -> bool:
    """Whether what ``box`` shows goes on alike to every edge it does not touch: a texture that
    fills the photo (planks, a close-up of leaves), not ground under a horizon."""
    d = [v for v in edge_distances(rgb, box).values() if v is not None]
    return len(d) >= 2 and max(d) <= far


def crop_box(box: tuple[int, int, int, int], shape: tuple[int, ...], pad: float = 0.08):
    """``box`` grown by ``pad`` of its size on each side, clipped to the image."""
    h, w = shape[:2]
    x1, y1, x2, y2 = box
    px, py = (x2 - x1) * pad, (y2 - y1) * pad
    return (max(0, int(x1 - px)), max(0, int(y1 - py)), min(w, int(np.ceil(x2 + px))),
            min(h, int(np.ceil(y2 + py))))


def contrast_with_surroundings(rgb: np.ndarray, box: tuple[int, int, int, int]) -> float:
    """How far the colours inside ``box`` are from those around it (half the box's size away on
    each side): the distance in Lab between their mean colours plus the difference of their
    brightness spreads, for the side that differs least. A dwell on a thing the detector missed stands out from what is around
    it; a dwell on grass or sky does not."""
    h, w = rgb.shape[:2]
    x1, y1, x2, y2 = box
    gx1, gy1, gx2, gy2 = crop_box(box, rgb.shape, pad=0.5)
    f = min(1.0, 128 / max(1, gx2 - gx1, gy2 - gy1))
    crop = cv2.resize(rgb[gy1:gy2, gx1:gx2], (max(2, round((gx2 - gx1) * f)), max(2, round((gy2 - gy1) * f))),
                      interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(crop, cv2.COLOR_RGB2LAB).astype(np.float32)
    inner = np.zeros(lab.shape[:2], bool)
    inner[int((y1 - gy1) * f): int(np.ceil((y2 - gy1) * f)), int((x1 - gx1) * f): int(np.ceil((x2 - gx1) * f))] = True
    if inner.all() or not inner.any():
        return 0.0
    a = lab[inner]
    ys, xs = np.nonzero(inner)
    # each side of the ring on its own, and the least different counts: a dwell on the ground just
    # below the horizon differs from the sky above it but not from the ground beside it
    sides = [lab[: ys.min()], lab[ys.max() + 1:], lab[:, : xs.min()], lab[:, xs.max() + 1:]]
    diffs = [float(np.linalg.norm(a.mean(0) - b.reshape(-1, 3).mean(0)) + abs(a[:, 0].std() - b[..., 0].std()))
             for b in sides if b.size >= 3 * 16]
    return min(diffs, default=0.0)
