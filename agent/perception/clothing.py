"""The colour of what a person wears (:func:`person_clothing_colour`), as describe and the questions
name a person ("a person in black"): their mask below the head, skin left out."""

from __future__ import annotations

import cv2
import numpy as np

from agent.perception.colour_terms import colour_term


def skin_mask(rgb: np.ndarray) -> np.ndarray:
    """Pixels in the usual skin-tone range (YCrCb, Chai and Ngan's bounds); every skin colour
    falls in it, so what is left of a person is clothing, hair and background."""
    ycc = cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2YCrCb)
    cr, cb = ycc[..., 1], ycc[..., 2]
    return (cr >= 133) & (cr <= 173) & (cb >= 77) & (cb <= 127)


# Share of a person's chest band in the skin-tone range over which it is taken for clothing of
# that colour (see person_clothing_colour).
SKIN_COLOURED_CLOTHES = 0.6
PALE_CR = 142


def person_clothing_colour(rgb: np.ndarray, box: tuple[int, int, int, int],
                           mask: np.ndarray | None = None, gains: np.ndarray | None = None, *,
                           white: float | None = None) -> str | None:
    """The colour of what a person wears: their mask below the head, skin-coloured pixels left
    out; None when less than a twentieth of the box is left.

    The head ends where the face does: the lowest row in the box's upper 70% with skin across a
    tenth of its width (a head-and-shoulders picture is mostly face and hair, whose colours are
    not clothes'), or the top fifth of the box when no face shows (a back, a grey photo)."""
    x1, y1, x2, y2 = box
    region = rgb[y1:y2, x1:x2]
    if region.size == 0:
        return None
    keep = (mask.copy() if mask is not None and mask.shape == region.shape[:2]
            else np.ones(region.shape[:2], bool))
    skin = skin_mask(region)
    h = region.shape[0]
    # A cream or beige coat is in the skin-tone range too: where most of the chest band
    # (30-60% of the box's height, which a body rarely shows bare) is skin-coloured, that is the
    # clothing, not skin: the face is looked for in the top third only and the coat kept. Else a
    # man in a cream coat was "a person in black", his trousers all that was left (issue 30).
    # Only pale, weakly red tones (YCrCb Cr under PALE_CR: cream 137, where skin is 140-165, a
    # tanned chest 156) count: a bare body stays skin and says no colour.
    band = keep[int(0.3 * h): int(0.6 * h)]
    cr = cv2.cvtColor(np.ascontiguousarray(region[int(0.3 * h): int(0.6 * h)]), cv2.COLOR_RGB2YCrCb)[..., 1]
    pale = skin[int(0.3 * h): int(0.6 * h)] & (cr < PALE_CR) & band
    coat = band.sum() > 0 and pale.sum() > SKIN_COLOURED_CLOTHES * band.sum()
    if coat:
        skin = skin.copy()
        skin[int(0.35 * h):] = False
    face = np.nonzero((skin & keep)[: int(0.7 * h)].mean(axis=1) >= 0.1)[0]
    head = max(1, h // 5, int(face.max()) + 1 + h // 20 if len(face) else 0)
    torso = np.zeros_like(keep)
    torso[head:] = True
    keep &= torso & ~skin
    if keep.sum() < 0.05 * keep.size:
        # the mask is too small to hold the clothes (GrabCut lost the person and the inner half
        # of the box is all that is left): the person's box below the head, skin left out
        keep = torso & ~skin
    if keep.sum() < 0.05 * keep.size:
        return None
    return colour_term(region[keep], gains, white=white)
