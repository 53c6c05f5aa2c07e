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
                           white: float | None = None, face: tuple[int, int, int, int] | None = None) -> str | None:
    """The colour of what a person wears: their mask below the head, skin-coloured pixels left
    out; None when less than a twentieth of the box is left.

    The head ends where the face does: the lowest row in the box's upper 70% with skin across a
    tenth of its width (a head-and-shoulders picture is mostly face and hair, whose colours are
    not clothes'), or the top fifth of the box when no face shows (a back, a grey photo). ``face``:
    the face detector's box of this person's face (:func:`face_in`), whose chin ends the head instead:
    hands at the chest are skin too (gcompris' Irish musicians, their instruments held at the chest,
    were all "in black", their trousers all that was left below the hands)."""
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
    if face is not None:  # the chin and a little of the neck below it
        head = max(1, min(int(0.7 * h), face[3] - y1 + (face[3] - face[1]) // 4))
    else:
        rows = np.nonzero((skin & keep)[: int(0.7 * h)].mean(axis=1) >= 0.1)[0]
        head = max(1, h // 5, int(rows.max()) + 1 + h // 20 if len(rows) else 0)
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


def face_in(box: tuple[int, int, int, int], faces: list) -> tuple[int, int, int, int] | None:
    """The box of the face (of ``faces``, the face detector's) that is this person's: its centre in
    the upper half of ``box``, the largest such; None when there is none."""
    x1, y1, x2, y2 = box
    mine = [f.box for f in faces if x1 <= (f.box[0] + f.box[2]) / 2 <= x2 and y1 <= (f.box[1] + f.box[3]) / 2 <= (y1 + y2) / 2]
    return max(mine, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]), default=None)


def faces_of(rgb: np.ndarray, people: list) -> list:
    """The faces of ``people`` (detections), found once for a picture; none when the face model is
    not installed (the head is then found from the skin)."""
    if not people:
        return []
    from agent.perception.faces import find_faces
    from editor.models import ModelMissingError

    try:
        return find_faces(rgb, people=people)
    except ModelMissingError:
        return []
