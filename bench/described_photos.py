"""Sixty real photos that may be redistributed, for ``bench/describe_human.py``: where each comes
from and its licence. All are installed offline: scikit-image and scikit-learn (Python packages in
requirements.txt), and three Debian packages (``apt-get install mate-backgrounds
lomiri-wallpapers-16.04 plasma-workspace-wallpapers``).

- scikit-image sample data (``skimage.data.<name>``; each docstring gives the source): astronaut
  (NASA, public domain), chelsea (CC0), coffee (CC0), motorcycle left and right views (Middlebury
  2014 stereo data set, redistributed by scikit-image), rocket (SpaceX, CC0), camera (free to use per
  scikit-image), coins (Brooklyn Museum, no known restrictions), moon, page, grass (CC0), gravel
  (CC0), brick (CC0), retina (Wikimedia, CC0), hubble_deep_field (NASA, public domain), clock
  (public domain, Stefan van der Walt), immunohistochemistry (no known restrictions), text (public
  domain), cell (CC0), microaneurysms (CC0).
- scikit-learn's sample images: china.jpg and flower.jpg (Flickr, CC BY 2.0).
- mate-backgrounds, /usr/share/backgrounds/mate/nature (GPL-2+ per the package's copyright file).
- lomiri-wallpapers-16.04, /usr/share/backgrounds/*_by_*.jpg (CC BY 4.0 or CC BY-SA 4.0; the file
  name gives the photographer; per the package's copyright file); its drawn or rendered pictures
  (Fossa, Painting-Colors, umang, analogpattern) are left out: not photos.
- plasma-workspace-wallpapers, /usr/share/wallpapers/<Name>/contents/images (GPL-2+): the photos
  among them (not the drawn or rendered ones).

Every third photo in list order (index 2, 5, 8, ...) is held out: never tuned on, printed as a
total only.
"""

from __future__ import annotations

import glob
import os

import numpy as np

SKIMAGE = ("astronaut", "chelsea", "coffee", "motorcycle_left", "motorcycle_right", "rocket", "camera",
           "coins", "moon", "page", "grass", "gravel", "brick", "retina", "hubble_deep_field", "clock",
           "immunohistochemistry", "text", "cell", "microaneurysms")
SKLEARN = ("china", "flower")
MATE_DIR = "/usr/share/backgrounds/mate/nature"
MATE = ("Aqua", "Blinds", "Dune", "FreshFlower", "Garden", "GreenMeadow", "LadyBird", "RainDrops",
        "Storm", "TwoWings", "Wood", "YellowFlower")
LOMIRI = ("Bridge_by_Sander_Klootwijk", "Dragonfly_by_Bolly",
          "Infinite-Sea_by_Aury88", "Kleiber_by_Lukas_Baubkus", "Picture_0B_by_freespace", "Picture_1A_by_freespace", "Wine_by_Jakkub_Mede",
          "aitzgorri_by_Aitzol_Berasategi", "free_by_Peter_Nerlich",
          "friends_by_Aitzol_Berasategi", "greentock_by_Peter_Nerlich", "life_by_Aitzol_Berasategi",
          "picosdeeuropa_by_Aitzol_Berasategi", "seeding_by_Clements_Engelhardt",
          "sunset_by_Aitzol_Berasategi")
PLASMA = ("BytheWater", "ColdRipple", "ColorfulCups", "DarkestHour", "EveningGlow", "FallenLeaf", "Grey",
          "Kite", "OneStandsOut", "Path", "summer_1am")
NAMES = [*SKIMAGE, *SKLEARN, *MATE, *LOMIRI, *PLASMA]
SIDE = 1024  # photos are scaled down to this many pixels a side before captioning


def split(name: str) -> str:
    return "held" if NAMES.index(name) % 3 == 2 else "dev"


def path_of(name: str) -> str | None:
    """The file of a packaged photo (None for scikit-image's, which load by name)."""
    if name in SKLEARN:
        import sklearn
        return os.path.join(os.path.dirname(sklearn.__file__), "datasets", "images", f"{name}.jpg")
    if name in MATE:
        return os.path.join(MATE_DIR, f"{name}.jpg")
    if name in LOMIRI:
        return f"/usr/share/backgrounds/{name}.jpg"
    if name in PLASMA:
        files = glob.glob(f"/usr/share/wallpapers/{name}/contents/images/*.jpg")
        # the largest image no wider than 2560 pixels: the same photo at a size worth looking at
        sized = sorted((int(os.path.basename(f).split("x")[0]), f) for f in files)
        fits = [f for w, f in sized if w <= 2560] or [sized[0][1]]
        return fits[-1]
    return None


def load(name: str) -> np.ndarray:
    """RGB uint8, at most :data:`SIDE` pixels a side."""
    import cv2
    if name in SKIMAGE:
        from skimage import data
        img = getattr(data, name)() if not name.startswith("motorcycle") else data.stereo_motorcycle()[
            0 if name.endswith("left") else 1]
    else:
        img = cv2.cvtColor(cv2.imread(path_of(name), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    if img.ndim == 2:
        img = np.repeat(img[:, :, None], 3, axis=2)
    img = img[:, :, :3]
    s = SIDE / max(img.shape[:2])
    if s < 1:
        img = cv2.resize(img, (round(img.shape[1] * s), round(img.shape[0] * s)), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(img.astype(np.uint8))


def present() -> list[str]:
    return [n for n in NAMES if n in SKIMAGE or os.path.exists(path_of(n) or "")]
