"""People's faces by name: "fix the red eyes" (red_eye), "crop it to a headshot" (crop face).

The faces come from :mod:`agent.perception.faces` (their eye points), the pixels from
:mod:`editor.retouch`. No face, or no red eye in the faces found, is said and changes nothing: a
claim of a fix that did not happen is worse than none.
"""

from __future__ import annotations

import numpy as np

from agent.perception.faces import find_faces

EYE_RADIUS = 0.1  # of the face box's width: the circle looked in around each eye point


def red_eye(pixels: np.ndarray) -> tuple[np.ndarray, str]:
    """The pixels with red eyes fixed, and what to say of it; ``ValueError`` when there is none."""
    faces = find_faces(pixels)
    if not faces:
        raise ValueError("I don't see a face in this picture, so I found no red eyes to fix")
    from editor.retouch import fix_red_eyes

    eyes = [(x, y, EYE_RADIUS * (f.box[2] - f.box[0])) for f in faces for x, y in f.eyes]
    out, n = fix_red_eyes(pixels, eyes)
    if n == 0:
        many = f"{len(faces)} faces" if len(faces) > 1 else "a face"
        raise ValueError(f"I see {many} but no red eyes: nothing changed")
    faces_said = "1 face" if len(faces) == 1 else f"{len(faces)} faces"
    return out, f"{'1 eye was' if n == 1 else f'{n} eyes were'} red, in {faces_said}."


def crop_face(pixels: np.ndarray, words: str = "face", *, room: float = 1.0) -> np.ndarray:
    """A headshot: the face ``words`` names (:func:`agent.perception.faces.pick`: the biggest, or the
    one placed; "faces": all of them) with room for the hair (a face's height above its box), the
    chin and shoulders (1.2 below) and half a width on each side, all times ``room`` ("a bit wider"
    after it), clipped to the picture. ``ValueError`` when there is no face."""
    from agent.grammar.commands import face_words
    from agent.perception.faces import chosen
    from editor import ops

    faces = find_faces(pixels)
    if not faces:
        raise ValueError("I don't see a face in this picture to crop to")
    _, every, where = face_words(words)
    picked = chosen(faces, every, where)
    x1, y1 = min(f.box[0] for f in picked), min(f.box[1] for f in picked)
    x2, y2 = max(f.box[2] for f in picked), max(f.box[3] for f in picked)
    # the room around is a face's size (the biggest face's, when there are several)
    fw, fh = max(f.box[2] - f.box[0] for f in picked), max(f.box[3] - f.box[1] for f in picked)
    h, w = pixels.shape[:2]
    box = (max(0, int(x1 - 0.5 * room * fw)), max(0, int(y1 - room * fh)), min(w, int(x2 + 0.5 * room * fw)),
           min(h, int(y2 + 1.2 * room * fh)))
    return ops.crop(pixels, box=box)
