"""Hand labels of the sky for bench/regions.py, and the photos they belong to.

Every photo is loaded at 640 pixels on its long side (:func:`load`); polygons are in those pixels.
Each was drawn by looking at the photo through a 10-pixel grid at 2-4x zoom, before any sky
detector ran on it. Where the sky's edge runs along something the polygon cannot follow (a man's
coat, a pagoda's eaves, lattice towers), the label is the polygon *and* a brightness or colour
rule, kept to the part connected to the top of the photo; the result was looked at as an overlay.
Thin things across the sky (bridge cables, bars) are drawn as thick lines marked "not sky".
Pixels within :data:`IGNORE_PX` of a label's edge count neither way (a drawn edge is good to 2 or
3 pixels, not to one).

Photos without sky are labelled "no sky": their truth is an empty mask, and the mask found there
must be near empty.

Sources (redistributable, all offline): scikit-image's sample data and scikit-learn's sample images
(see bench/photoset.py), Debian's mate-backgrounds (GPL-2+; ``apt-get install mate-backgrounds``)
and lomiri-wallpapers-16.04 / -20.04 (CC BY 4.0, CC BY-SA 4.0, CC0, per photo; the authors are in
the file names and ``/usr/share/doc/lomiri-wallpapers-16.04/copyright``; ``apt-get install
lomiri-wallpapers-16.04 lomiri-wallpapers-20.04``).

The split into a development part (``DEV``) and a held-out part (``HELD_OUT``) was fixed before
the sky detector was written; the detector's thresholds were set on ``DEV`` alone.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

LOMIRI_DIR = "/usr/share/backgrounds"
IGNORE_PX = 2


@dataclass(frozen=True)
class SkyLabel:
    name: str
    polygon: tuple = ()  # (x, y) points of the region above the horizon; () for no sky
    rule: str = ""  # a pixel rule ANDed with the polygon, see _RULES
    not_sky: tuple = ()  # ((x1, y1, x2, y2, thickness), ...) thick lines across the sky
    holes: tuple = ()  # polygons inside the first one that are not sky


def load(name: str) -> np.ndarray:
    """The photo as 8-bit RGB, 640 pixels on its long side (512 for scikit-image's 512x512 ones)."""
    path = os.path.join(LOMIRI_DIR, f"{name}.jpg")
    if os.path.exists(path) or "_by_" in name:
        bgr = cv2.imread(path)
        if bgr is None:
            raise FileNotFoundError(f"{path}: install the Debian packages lomiri-wallpapers-16.04 and -20.04")
        f = 640 / max(bgr.shape[:2])
        bgr = cv2.resize(bgr, (round(bgr.shape[1] * f), round(bgr.shape[0] * f)), interpolation=cv2.INTER_AREA)
        return np.ascontiguousarray(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
    import photoset

    return photoset.load(name)


def _connected_to_top(m: np.ndarray) -> np.ndarray:
    n, lab = cv2.connectedComponents(m.astype(np.uint8), connectivity=4)
    top = np.unique(lab[0][m[0]])
    return np.isin(lab, top[top > 0])


def _rule(rgb: np.ndarray, rule: str) -> np.ndarray:
    x = rgb.astype(np.int32)
    r, b = x[..., 0], x[..., 2]
    if rule == "bright":  # the camera man's grey sky against his dark coat
        return r >= 150
    if rule == "haze":  # China's pale haze against the pagoda's colours and shadows
        hi, lo = x.max(axis=2), x.min(axis=2)
        return (lo >= 150) & (hi - lo <= 60)
    if rule == "blue":  # a blue sky seen through leaves
        return (b - r >= 25) & (b >= 60)
    if rule == "dusk":  # the dark blue dusk sky between lattice towers
        return (b - r >= 15) & (b >= 40)
    raise ValueError(rule)


def truth(label: SkyLabel, rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(sky, counted)``: the label's sky as bool, and the pixels that count in the measures."""
    h, w = rgb.shape[:2]
    sky = np.zeros((h, w), np.uint8)
    if label.polygon:
        cv2.fillPoly(sky, [np.array(label.polygon, np.int32)], 1)
    elif label.rule:
        sky[:] = 1
    for hole in label.holes:
        cv2.fillPoly(sky, [np.array(hole, np.int32)], 0)
    for x1, y1, x2, y2, t in label.not_sky:
        cv2.line(sky, (x1, y1), (x2, y2), 0, t)
    sky = sky.astype(bool)
    if label.rule:
        sky &= _rule(rgb, label.rule)
        if label.polygon:
            sky = _connected_to_top(sky)
    edge = cv2.morphologyEx(sky.astype(np.uint8), cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)).astype(bool)
    k = 2 * IGNORE_PX - 1
    band = cv2.dilate(edge.astype(np.uint8), np.ones((k, k), np.uint8)).astype(bool)
    return sky, ~band


# Sky above a drawn horizon.
AITZGORRI = SkyLabel("aitzgorri_by_Aitzol_Berasategi", (
    (0, 0), (640, 0), (640, 97), (620, 96), (600, 93), (590, 92), (575, 88), (565, 78), (555, 70),
    (540, 63), (520, 61), (500, 60), (490, 61), (470, 63), (450, 67), (440, 71), (430, 70), (420, 68),
    (410, 63), (395, 62), (380, 66), (360, 62), (355, 55), (345, 50), (330, 55), (310, 59), (300, 59),
    (280, 58), (265, 58), (250, 63), (235, 68), (220, 65), (210, 62), (200, 65), (190, 70), (170, 68),
    (150, 70), (125, 73), (110, 78), (100, 82), (75, 92), (50, 100), (30, 100), (10, 94), (0, 94)))
PICOS = SkyLabel("picosdeeuropa_by_Aitzol_Berasategi", (
    (0, 0), (640, 0), (640, 70), (620, 78), (600, 85), (580, 90), (560, 95), (540, 100), (520, 105),
    (500, 115), (480, 115), (460, 112), (450, 115), (440, 122), (430, 130), (420, 125), (400, 118),
    (380, 108), (370, 100), (360, 97), (350, 100), (330, 110), (320, 105), (310, 115), (300, 130),
    (290, 150), (280, 175), (270, 180), (250, 182), (235, 190), (215, 210), (200, 210), (180, 195),
    (170, 185), (160, 175), (140, 165), (120, 165), (100, 160), (95, 152), (85, 140), (70, 123),
    (50, 110), (40, 100), (20, 90), (0, 92)))
DUNE = SkyLabel("Dune", ((0, 0), (640, 0), (640, 119), (0, 119)))  # the sea's edge; stalks cross it
STORM = SkyLabel("Storm", ((0, 0), (640, 0), (640, 262), (0, 259)))
SUNSET = SkyLabel("sunset_by_Aitzol_Berasategi", (
    (0, 0), (640, 0), (640, 186), (600, 186), (560, 188), (520, 188), (508, 182), (500, 187),
    (480, 188), (450, 190), (420, 192), (380, 194), (350, 196), (330, 200), (300, 197), (280, 195),
    (250, 193), (220, 192), (200, 193), (180, 195), (150, 198), (100, 200), (50, 203), (0, 205)))
BRIDGE = SkyLabel("Bridge_by_Sander_Klootwijk", ((0, 0), (640, 0), (640, 298), (0, 301)), not_sky=(
    (0, 156, 327, 0, 10),  # the upper bar
    (262, 304, 640, 103, 12),  # the lower bar
    (298, 0, 440, 301, 6), (311, 0, 453, 301, 6),  # the cables, two pairs (measured on rows 100, 200)
))
# Sky by a drawn region and a pixel rule.
CAMERA = SkyLabel("camera", (
    (0, 0), (512, 0), (512, 195), (475, 195), (470, 185), (448, 185), (445, 200), (432, 200),
    (432, 138), (430, 120), (424, 115), (414, 118), (412, 130), (412, 200), (400, 200), (398, 190),
    (385, 185), (370, 183), (355, 185), (345, 190), (335, 200), (60, 200), (55, 180), (40, 172),
    (0, 175)), rule="bright")
CHINA = SkyLabel("china", (
    (0, 0), (640, 0), (640, 135), (590, 133), (570, 140), (550, 150), (545, 198), (55, 198),
    (40, 185), (20, 180), (0, 185)), rule="haze")
ROCKET = SkyLabel("rocket", ((0, 0), (640, 0), (640, 375), (0, 375)), rule="dusk", holes=(
    ((303, 120), (342, 120), (342, 375), (303, 375)),))  # the rocket; the towers fail the rule
DRAGONFLY = SkyLabel("Dragonfly_by_Bolly", rule="blue")  # sky through leaves: no horizon

NO_SKY_DEV = ("astronaut", "coffee", "chelsea", "moto_left", "flower", "Aqua", "Wood", "LadyBird",
              "GreenMeadow")
NO_SKY_HELD_OUT = ("moto_right", "Garden", "Blinds", "FreshFlower", "RainDrops", "TwoWings",
                   "YellowFlower", "friends_by_Aitzol_Berasategi", "free_by_Peter_Nerlich",
                   "Wine_by_Jakkub_Mede", "Picture_0B_by_freespace", "Picture_1A_by_freespace",
                   "greentock_by_Peter_Nerlich", "Kleiber_by_Lukas_Baubkus")

DEV = [CAMERA, CHINA, DUNE, PICOS, BRIDGE] + [SkyLabel(n) for n in NO_SKY_DEV]
HELD_OUT = [AITZGORRI, STORM, SUNSET, ROCKET, DRAGONFLY] + [SkyLabel(n) for n in NO_SKY_HELD_OUT]
