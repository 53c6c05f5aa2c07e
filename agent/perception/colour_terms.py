"""Basic colour terms for a set of pixels, in CIELAB, after correcting the photo's white balance.

People name an object's colour with a dozen basic terms (Berlin and Kay's eleven, and "beige"):
red, orange, yellow, green, blue, purple, pink, brown, black, white, grey, beige. The pixels are
converted to CIELAB (D65, from sRGB with its gamma undone, float: L* 0-100, a* and b* signed) and
their main colour (:func:`main_colour`) is named by where it falls in lightness L*, chroma
C* = hypot(a*, b*) and hue angle h = atan2(b*, a*) (:func:`term`). Hue angles of the sRGB
primaries for orientation: red 40, yellow 102, green 136, blue 306 degrees.

The boundaries were set on the development part of ``bench/colours.py`` (141 crops of real photos
labelled by hand; the 74 held-out crops were not looked at): red below 41.5 degrees (below 46 when
dark, L* < 40, and not strongly coloured, chroma under 65: the coffee cup is red at 41.7 and chroma
58-60, the astronaut's suit orange at 43-45 and L* 54-60, a dahlia's petals in shade orange at
42-43, L* 36-40 and chroma 71-74); yellow from 72 degrees (the dahlia's petals are orange at 63-67,
a butterfly's wings at 70-71, the sunflower yellow at 72.7-97; one yellow flower at 69.6 is lost);
green from 105 degrees, or from 85 when dark (L* < 47: the olive grass of the dunes is green at
88-105); blue from 200 to 310; purple, and pink when light, from 310 round to red. Dark oranges
and yellows are brown unless strongly coloured (chroma 50 and more: orange); weakly coloured
oranges (chroma under 35) brown or beige; light, weakly coloured oranges and yellows beige, and
weakly coloured yellows (chroma under 30) that are not light brown, and so are dark, weakly
coloured red-oranges (hue 25-46, L* under 45, chroma under 25);
colours with chroma under 8 are black, grey or white by lightness, and so are very dark, weakly
coloured blues (L* under 20, chroma under 20: a night sky is black).

The main colour is the largest of three k-means clusters of the pixels, a coloured one weighted
up; clusters of one hue that k-means cut apart by lightness (a thing's lit and shaded sides) count
as one and are named by their median (:func:`main_colour`).

White balance (:func:`white_balance_gains`): a photo taken under warm or cold light tints every
object. The brightest pixels that are not clipped are taken as a white patch when they are nearly
neutral already (:data:`WHITE_PATCH_CHROMA`: a white wall, a cloud, a highlight, not a pale sky); gains in linear RGB make
them neutral (von Kries), each gain kept within 0.8-1.25 so that a photo of a yellow flower is not
"corrected" to blue. A photo whose brightest pixels are strongly coloured keeps its colours.

White in shade (:func:`white_level`, ``colour_term(..., white=...)``): a light, nearly neutral
thing whose light parts are as light as the photo's whites is white, though grey or bluish in
absolute terms (a white bird in shade, a white seed head in a dark photo).
"""

from __future__ import annotations

import cv2
import numpy as np

TERMS = ("red", "orange", "yellow", "green", "blue", "purple", "pink", "brown", "black", "white", "grey",
         "beige")

# The brightest pixels are a white patch only when their chroma is under this: a pale blue sky is
# the brightest thing in many photos (chroma 16-19 on mate-backgrounds' Aqua, Dune and Storm) and
# is not white; a white wall, a cup's rim or a cloud under a tinted light is (2.7-12.6 on the
# development photos).
WHITE_PATCH_CHROMA = 14.0
# ... and only when they are this light (L*): a white thing in a photo is among its lightest
# (87.5-93.2 on the development photos that have one), where a light beige or grey wall behind a
# person (L* 70-80) is not white, and balancing it away turned an orange suit brown
# (bench/trace.py's development set, persons on flat walls).
WHITE_PATCH_LIGHTNESS = 85.0
# Chroma an orange needs to be called orange (bench/colours.py dev: 117/141 with none, 118 at 30,
# 119 at 35 and 40: a bench's grey-brown back, tan cardboard and wood were "orange").
ORANGE_CHROMA = 35.0
# Chroma from which a dark orange is orange, not brown: a dahlia's or a gazania's petals in shade
# (L* 40-43, chroma 73-76 on bench/colours.py's development photos) are orange or red to people,
# not brown as a dark, weakly coloured wood is (bench/colours.py's development parts dev and dev2:
# 119/141 and 20/38 with no such bound, 121 and 22 at 50 and at 60, 121 and 21 at 70).
DARK_ORANGE_CHROMA = 50.0
# Lightness under which a weakly coloured blue or violet (chroma under 20, hue 180-330) is black: a
# night sky behind a launch tower (L* 16, chroma 17) is black to people, where a dark brown dog
# stays brown (bench/colours.py's development parts: 121/141 and 22/38 with no such bound, 123 and
# 23 at 18 and 20, with or without the hue bound; without it the dog in bench/describe_human.py's
# development photos was "black").
DARK_BLUE_BLACK_BELOW = 20.0
# Chroma under which a dark orange-red (hue 41.5-46, L* under 40) is red (bench/colours.py's
# development parts: 125/141 and 25/38 with no such bound, 127 and 25 at 65).
DARK_RED_CHROMA = 65.0
# Hue angle from which a blue is purple: sRGB's blue primary is at 306, the colours named violet,
# blue-violet, indigo and rebeccapurple at 311.7-314.1 (blue with the boundary at 315); on
# bench/colours.py's development parts a purple patch on the astronaut at 313.8 was blue
# (127/141 -> 128/141, dev2 28/38 unchanged).
PURPLE_FROM = 310.0
# Hue angle from which an orange is yellow (bench/colours.py's development parts: 123/141 and 25/38
# at 69, 125 and 25 at 72; a butterfly's orange wings and orange petals were yellow at 70-71).
YELLOW_FROM = 72.0
# Chroma under which a colour is achromatic (black, grey, white by lightness).
ACHROMATIC_CHROMA = 8.0
# Lightness under which an achromatic colour is black, over which it is white.
BLACK_BELOW, WHITE_ABOVE = 28.0, 82.0
# A white thing in shade or under a dim light is grey or bluish in absolute terms (L* 60-75), yet
# people see it white: the lightest things in a scene anchor white (lightness constancy). A thing
# is white when its main colour is light (L* from WHITE_IN_SHADE_LIGHTNESS) and nearly neutral
# (chroma under WHITE_IN_SHADE_CHROMA) and its own light parts (90th percentile of L*) reach the
# photo's whites (:func:`white_level`, the 99th percentile) within WHITE_IN_SHADE_MARGIN. On
# bench/colours.py's development parts: a white seed head over a dark photo (L* 75, grey) and a
# seagull in blue shade (L* 60, chroma 10: "blue") became white, no right crop went wrong (123/141
# and 23/38 before, 123/141 and 25/38 after); a grey camera body whose light parts are 4.5 under
# its photo's whites stays grey, and so does a speckled guineafowl (main colour L* 52).
WHITE_IN_SHADE_LIGHTNESS = 55.0
WHITE_IN_SHADE_CHROMA = 12.0
WHITE_IN_SHADE_MARGIN = 3.0
# A coat of black and white patches (a Holstein cow, a magpie) is "black and white", as people say
# it, not the larger patch's colour: at least TWO_TONE_SHARE of its pixels each dark and neutral
# (L* under 35, chroma under 15) and light and neutral (L* over 65). gcompris' Holstein cow: 0.70 and
# 0.26 ("a black cow" before); a blue roan horse 0.41 and 0.16, a moose 0.64 and 0.14, a sheep 0.16
# and 0.45 keep their one word.
TWO_TONE_SHARE = 0.2


def _linear(rgb01: np.ndarray) -> np.ndarray:
    return np.where(rgb01 <= 0.04045, rgb01 / 12.92, ((rgb01 + 0.055) / 1.055) ** 2.4)


def _srgb(lin: np.ndarray) -> np.ndarray:
    lin = np.clip(lin, 0.0, 1.0)
    return np.where(lin <= 0.0031308, lin * 12.92, 1.055 * lin ** (1 / 2.4) - 0.055)


def to_lab(rgb: np.ndarray) -> np.ndarray:
    """CIELAB (n, 3) float of 8-bit sRGB pixels (n, 3)."""
    px = np.asarray(rgb, np.float32).reshape(-1, 1, 3) / 255.0
    return cv2.cvtColor(px, cv2.COLOR_RGB2LAB).reshape(-1, 3)


def fit_side(rgb: np.ndarray, max_side: int) -> np.ndarray:
    """The photo at most ``max_side`` pixels a side (area-averaged), or as it is when smaller."""
    img = np.asarray(rgb)
    h, w = img.shape[:2]
    f = min(1.0, max_side / max(h, w, 1))
    if f < 1.0:
        img = cv2.resize(img, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA)
    return img


def photo_light(rgb: np.ndarray, *, max_side: int = 256) -> tuple[np.ndarray, float]:
    """The photo's :func:`white_balance_gains` and :func:`white_level`, from one small copy of it."""
    small = fit_side(rgb, max_side)
    gains = white_balance_gains(small, max_side=max_side)
    return gains, white_level(small, gains, max_side=max_side)


def white_balance_gains(rgb: np.ndarray, *, max_side: int = 256) -> np.ndarray:
    """Per-channel gains in linear RGB that make the photo's white patch neutral (ones when the
    photo has no near-neutral bright patch); see the module docstring.

    >>> img = np.full((10, 10, 3), (235, 225, 210), np.uint8)
    >>> bool(white_balance_gains(img)[2] > 1.0)    # a warm cast: blue is raised
    True
    """
    img = fit_side(rgb, max_side)
    px = img.reshape(-1, 3).astype(np.float32)
    px = px[(px < 250).all(axis=1)]  # clipped pixels say nothing of the light
    if len(px) < 20:
        return np.ones(3, np.float32)
    bright = px.sum(axis=1)
    top = px[bright >= np.percentile(bright, 97)]
    white = top.mean(axis=0)
    lab = to_lab(white[None].clip(0, 255))[0]
    if float(np.hypot(lab[1], lab[2])) >= WHITE_PATCH_CHROMA or lab[0] < WHITE_PATCH_LIGHTNESS:
        return np.ones(3, np.float32)
    lin = _linear(white / 255.0)
    gains = lin.mean() / np.maximum(lin, 1e-4)
    return np.clip(gains, 0.8, 1.25).astype(np.float32)


def white_level(rgb: np.ndarray, gains: np.ndarray | None = None, *, max_side: int = 256) -> float:
    """The lightness (CIELAB L*) the photo's whites reach: the 99th percentile of L* over the photo,
    white-balanced with ``gains``.

    >>> img = np.full((20, 20, 3), 60, np.uint8); img[:2] = 200
    >>> round(white_level(img))
    81
    """
    img = fit_side(rgb, max_side)
    return float(np.percentile(to_lab(balance(img.reshape(-1, 3), gains))[:, 0], 99))


def balance(rgb: np.ndarray, gains: np.ndarray | None) -> np.ndarray:
    """8-bit pixels (n, 3) with ``gains`` applied in linear RGB."""
    px = np.asarray(rgb, np.uint8).reshape(-1, 3)
    if gains is None or np.allclose(gains, 1.0):
        return px
    lin = _linear(px.astype(np.float32) / 255.0) * gains
    return (_srgb(lin) * 255.0 + 0.5).astype(np.uint8)


def term(lab: np.ndarray) -> str:
    """The basic colour term of one CIELAB colour (see the module docstring for the boundaries).

    >>> [term(to_lab(np.array([c], np.uint8))[0]) for c in
    ...  [(220, 30, 30), (240, 140, 30), (235, 215, 40), (50, 150, 50), (40, 70, 190), (120, 50, 150),
    ...   (240, 160, 190), (120, 75, 40), (20, 20, 20), (245, 245, 245), (128, 128, 128), (220, 200, 160)]]
    ['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink', 'brown', 'black', 'white', 'grey', 'beige']
    """
    L, a, b = (float(v) for v in lab)
    c = float(np.hypot(a, b))
    h = float(np.degrees(np.arctan2(b, a))) % 360.0
    dark_blue = L < DARK_BLUE_BLACK_BELOW and c < 20.0 and 180.0 <= h < 330.0
    if c < ACHROMATIC_CHROMA or (L < 15.0 and c < 25.0) or dark_blue:
        return "black" if L < BLACK_BELOW else "white" if L > WHITE_ABOVE else "grey"
    if L > 88.0 and c < 15.0:
        return "white"
    if h >= PURPLE_FROM or h < 41.5 or (h < 46.0 and L < 40.0 and c < DARK_RED_CHROMA):
        if PURPLE_FROM <= h < 345.0:
            return "pink" if L >= 60.0 else "purple"
        if 25.0 <= h < 46.0 and L < 45.0 and c < 25.0:
            # a dark, weakly coloured red-orange is brown, as a dark, weakly coloured orange is: a
            # vulture's plumage (bench/colours.py dev2: 27/38 -> 28/38, dev 127/141 unchanged)
            return "brown"
        return "pink" if L >= 65.0 and c < 50.0 else "red"
    if h >= 200.0:
        return "blue"
    if h >= 105.0 or (h >= 85.0 and L < 47.0):
        return "green"
    # oranges and yellows: brown when dark, beige when light and weakly coloured
    if L < 45.0 and h < 85.0 and c < DARK_ORANGE_CHROMA:
        return "brown"
    if L > 60.0 and c < 30.0 and h < 90.0:
        return "beige"
    if h < YELLOW_FROM and c < ORANGE_CHROMA:
        # a weakly coloured orange is a light brown or a tan: people say brown, or beige when light
        return "brown" if L < 65.0 else "beige"
    if h < 90.0 and c < 30.0:
        # a weakly coloured yellow that is not light (L* 60 and under) is khaki or olive-brown, not
        # yellow: a mountain goat's and a hippopotamus's hide (bench/colours.py dev2: 25/38 -> 27/38,
        # dev 127/141 unchanged)
        return "brown"
    return "yellow" if h >= YELLOW_FROM else "orange"


# Clusters that are coloured (chroma from SHADE_CHROMA) and within SHADE_HUE degrees of hue of each
# other are one surface in light and in shade (see :func:`main_colour`).
SHADE_CHROMA = 12.0
SHADE_HUE = 20.0


def _hue_gap(a: float, b: float) -> float:
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


def main_colour(lab: np.ndarray) -> np.ndarray:
    """The main colour of CIELAB pixels (n, 3): the largest of three k-means clusters, a coloured
    cluster (chroma 20 or more) counting 1.4 times its size: a yellow petal's crop holds dark
    shadow between petals, a red cup its black inside, and people name the colour (on
    bench/colours.py's development part: 115/141 at 1.0, 117/141 at 1.5); still a white cup with
    40% of brown coffee in view is white.

    Coloured clusters of nearly the same hue (chroma from :data:`SHADE_CHROMA`, hues within
    :data:`SHADE_HUE` degrees) are one surface in light and in shade, and are counted and named
    together, by the median of their pixels: k-means cuts a lit and a shaded side of one thing
    apart by lightness, and the shaded side alone (a dahlia's petals in their own shade, a dark
    red-orange; a yellow flower's shaded petals, an orange) outnumbered the lit one and gave the
    word. A single cluster is named by its centre."""
    lab = np.asarray(lab, np.float32).reshape(-1, 3)
    if len(lab) < 30:
        return np.median(lab, axis=0)
    cv2.setRNGSeed(0)  # k-means starts are random: fixed, so the same pixels get the same word
    _, idx, centres = cv2.kmeans(lab, 3, None, (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5),
                                 2, cv2.KMEANS_PP_CENTERS)
    idx = idx.ravel()
    counts = np.bincount(idx, minlength=3).astype(np.float32)
    chroma = np.hypot(centres[:, 1], centres[:, 2])
    hue = np.degrees(np.arctan2(centres[:, 2], centres[:, 1])) % 360.0
    group = list(range(3))
    for i in range(3):
        for j in range(i):
            if (chroma[i] >= SHADE_CHROMA and chroma[j] >= SHADE_CHROMA
                    and _hue_gap(float(hue[i]), float(hue[j])) <= SHADE_HUE):
                gi, gj = group[i], group[j]
                group = [gj if g == gi else g for g in group]
    best, best_weight = [0], -1.0
    for g in sorted(set(group)):
        members = [i for i in range(3) if group[i] == g]
        weight = float(counts[members].sum()) * (1.4 if float(chroma[members].max()) >= 20.0 else 1.0)
        if weight > best_weight:
            best, best_weight = members, weight
    if len(best) == 1:
        return centres[best[0]]
    return np.median(lab[np.isin(idx, best)], axis=0)


# ... and patches, not light and shade: at most this share of its pixels between the two (L* 35-65).
# gcompris' kangaroo in sun and shade (0.35 dark, 0.41 light) was "a black and white wallaby": 0.23 of
# its pixels lie between; the Holstein cow's 0.03.
TWO_TONE_BETWEEN = 0.15


def two_tone(pixels: np.ndarray, gains: np.ndarray | None = None) -> bool:
    """Whether 8-bit RGB pixels (n, 3), white-balanced with ``gains``, are black and white patches
    (:data:`TWO_TONE_SHARE`).

    >>> two_tone(np.array([[20, 20, 20]] * 50 + [[235, 235, 235]] * 50, np.uint8))
    True
    >>> two_tone(np.array([[20, 20, 20]] * 90 + [[235, 235, 235]] * 10, np.uint8))
    False
    """
    lab = to_lab(balance(np.asarray(pixels, np.uint8).reshape(-1, 3), gains))
    neutral = np.hypot(lab[:, 1], lab[:, 2]) < 15.0
    between = ((lab[:, 0] >= 35.0) & (lab[:, 0] <= 65.0)).mean() if len(lab) else 1.0
    return bool(len(lab) and between <= TWO_TONE_BETWEEN and min(
        (neutral & (lab[:, 0] < 35.0)).mean(), (neutral & (lab[:, 0] > 65.0)).mean()) >= TWO_TONE_SHARE)


def colour_term(pixels: np.ndarray, gains: np.ndarray | None = None, *, white: float | None = None) -> str:
    """The basic colour term of 8-bit RGB pixels (n, 3), white-balanced with ``gains``
    (:func:`white_balance_gains` of the whole photo); with ``white``, the photo's
    :func:`white_level`, a light, nearly neutral thing as light as the photo's whites is white
    (see :data:`WHITE_IN_SHADE_LIGHTNESS`).

    >>> colour_term(np.array([[250, 0, 0]] * 40, np.uint8))
    'red'
    >>> shade = np.array([[160, 165, 175]] * 40, np.uint8)   # a white thing in shade, L* 67
    >>> colour_term(shade), colour_term(shade, white=68.0), colour_term(shade, white=95.0)
    ('grey', 'white', 'grey')
    """
    px = np.asarray(pixels, np.uint8).reshape(-1, 3)
    if len(px) == 0:
        raise ValueError("no pixels to name a colour from")
    if len(px) > 4000:
        px = px[:: len(px) // 4000]
    lab = to_lab(balance(px, gains))
    main = main_colour(lab)
    word = term(main)
    if (white is not None and word != "white" and main[0] >= WHITE_IN_SHADE_LIGHTNESS
            and float(np.hypot(main[1], main[2])) < WHITE_IN_SHADE_CHROMA
            and float(np.percentile(lab[:, 0], 90)) >= white - WHITE_IN_SHADE_MARGIN):
        return "white"
    return word
