"""Where things and found parts are in a picture, in the words every answer uses: a box's place
("on the left") and the sky's or the greenery's mask and box (the questions of
:mod:`agent.describe.questions` and :mod:`agent.describe.besides`)."""

from __future__ import annotations

import numpy as np

SKY_SIDE = 1024  # the sky is looked for on a copy this size on its long side
SURE = 0.5  # the detector's score from which the answers take a thing as there
UNSURE = 0.3  # ... and from which they say "I think", with the score (bench/question_confidence.py)
BOX_COLOR = "#ffcc00"  # the answers' boxes on the canvas


def where_words(box, shape) -> str:
    """Where a box is in a picture of ``shape``, in words ("on the left", "at the top right"), by
    the table every answer uses (:mod:`agent.perception.places`)."""
    from agent.perception.places import box_place, place_phrase

    return place_phrase(box_place(box, (shape[1], shape[0])))


def found_region(pixels: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """The picture on a copy :data:`SKY_SIDE` pixels on its long side (enough to say it: 0.4 s on 12
    megapixels at full size, 0.08 s so), the region's mask there (:func:`editor.masks.region_mask`,
    as "brighten the sky" and "make the grass greener" use) and the mask's box in the full picture's
    pixels."""
    from agent.perception.colour_terms import fit_side
    from agent.perception.models import to_rgb8
    from editor.masks import region_mask

    full = to_rgb8(pixels)
    h, w = full.shape[:2]
    rgb = fit_side(full, SKY_SIDE)
    mask = region_mask(rgb, name) >= 0.5
    if not mask.any():
        return rgb, mask, [0, 0, 0, 0]
    ys, xs = np.nonzero(mask)
    sx, sy = w / mask.shape[1], h / mask.shape[0]
    return rgb, mask, [int(xs.min() * sx), int(ys.min() * sy), min(w, int(np.ceil((xs.max() + 1) * sx))),
                       min(h, int(np.ceil((ys.max() + 1) * sy)))]


def found_part(about: str) -> str | None:
    """The region found by name that a question's words mean ("sky", "clouds", "greenery" for "the
    grass", "the trees"), or None for a thing the detector looks for."""
    from editor.masks import FOUND_NAMES, canonical_region_name

    try:
        name = canonical_region_name(about)
    except ValueError:
        return None
    return name if name in FOUND_NAMES else None
