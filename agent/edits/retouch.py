"""Retouching people by name: "fix the red eyes" (red_eye).

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
