"""Names kept through edits: a thing named on the photo as it was opened keeps its name on the
edits made of it.

The models name what the pixels show, and an edit can move them: a panda named surely on the
photo (the classifier's "panda" at 0.90, the detector's "bear") was, brightened by 25 and its
background darkened, a "cow" to the detector and a "panda" at only 0.13 to the classifier, so
"what colour is the panda?" got "I don't see a panda" and "remove the panda" "I couldn't find a
panda; I can see a bear". Brightening a panda does not make it something else.

The dialogue names the photo it was opened with as the reference of a turn (:func:`names_from`);
:func:`agent.perception.naming.name_objects` then gives each thing it finds the name the
reference's thing at the same place (boxes overlapping :data:`SAME_PLACE`) had, when that one was
named (not "an object") and neither is a person (whose clothing an edit may change, and who is
named by it). The colour is the current pixels' ("make the car red" makes a red car). A reference
of another size (rotated, cropped) or the same pixels is no reference. Pure functions of the
pixels otherwise: a script that calls the perception without the dialogue gets what the pixels
show.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import threading
from collections.abc import Callable, Iterator

import numpy as np

# A thing found now and one of the reference are the same thing when their boxes overlap this much
# (IoU): an edit moves a box by a few pixels (the panda's, brightened, 0.97), a removal takes it.
SAME_PLACE = 0.6
_REFERENCE: contextvars.ContextVar[_Reference | None] = contextvars.ContextVar("easel_names_reference", default=None)
# The names the person gave things ("no, it's a duck"): (box, word) pairs, for the photo of this block
_GIVEN: contextvars.ContextVar[tuple] = contextvars.ContextVar("easel_names_given", default=())
_named: dict[str, list] = {}  # the reference's things and names, by its pixels' digest (a few kept)
_lock = threading.Lock()
_KEPT = 4


class _Reference:
    """The reference of one block: loaded and hashed once, when a thing is first named in it."""

    def __init__(self, load: Callable[[], np.ndarray | None]):
        self.load, self.loaded = load, False
        self.pixels: np.ndarray | None = None
        self.key = ""

    def get(self) -> tuple[np.ndarray | None, str]:
        if not self.loaded:
            self.pixels, self.loaded = self.load(), True
            if self.pixels is not None:
                self.key = hashlib.sha256(np.ascontiguousarray(self.pixels).data).hexdigest()
        return self.pixels, self.key


@contextlib.contextmanager
def names_from(reference: Callable[[], np.ndarray | None] | None) -> Iterator[None]:
    """Within the block, things found are named as on ``reference()`` (called once, when a thing
    is first named; None or a picture of another size: no reference)."""
    token = _REFERENCE.set(_Reference(reference) if reference is not None else None)
    try:
        yield
    finally:
        _REFERENCE.reset(token)


def reference_things(rgb: np.ndarray, name_all: Callable[[np.ndarray], list]) -> list:
    """The reference's ``(detection, Named)`` pairs, found by ``name_all`` (once a reference: see
    :func:`agent.perception.naming.things_named`), when there is one for ``rgb`` (same size, other
    pixels), else []."""
    holder = _REFERENCE.get()
    ref, key = holder.get() if holder is not None else (None, "")
    if ref is None or ref.shape[:2] != rgb.shape[:2] or np.array_equal(ref, rgb):
        return []
    with _lock:
        if key in _named:
            return _named[key]
    with names_from(None):  # the reference is named by its own pixels
        pairs = name_all(ref)
    with _lock:
        if len(_named) >= _KEPT:
            _named.pop(next(iter(_named)))
        _named[key] = pairs
    return pairs


def kept_name(box, named, things: list):
    """The reference's Named for the thing at ``box`` now named ``named``, when it should be kept
    (see the module docstring), else None."""
    from agent.perception.models import box_iou

    if named.noun == "person" or not things:
        return None
    d, n = max(things, key=lambda dn: box_iou(dn[0].box, box))
    if box_iou(d.box, box) < SAME_PLACE or n.noun in ("object", "person") or (n.said or n.noun) == (
            named.said or named.noun):
        return None
    return n


@contextlib.contextmanager
def names_given(given) -> Iterator[None]:
    """Within the block, a thing found where the person named one (``given``: ``(box, word)`` pairs,
    "no, it's a duck" said of gcompris' duck, which the models call a goose) is called by that word."""
    token = _GIVEN.set(tuple(given))
    try:
        yield
    finally:
        _GIVEN.reset(token)


def given_word(box) -> str | None:
    """The word the person gave the thing at ``box`` (a box of theirs overlapping it by
    :data:`SAME_PLACE`), else None."""
    from agent.perception.models import box_iou

    best = max(_GIVEN.get(), key=lambda bw: box_iou(bw[0], box), default=None)
    return best[1] if best is not None and box_iou(best[0], box) >= SAME_PLACE else None


# -- things kept through edits that move no pixel ---------------------------------------------------
#
# A thing found on the picture before light and colour edits is still there after them: gcompris'
# meerkats, "how many meerkats are there?" "I count 3 meerkats.", then "make the one in the middle
# brighter" and the same question: "I count 2 meerkats." (the brightened one, 0.38 to the detector
# before, was under its bar after). The dialogue names the picture on screen and the one before such
# edits (:func:`unmoved_from`: the head's ancestor reached only through light, colour and
# black-and-white edits), and the detector's looks at the picture on screen (agent.perception.things)
# look at that one instead: the things are where they were, and what is said of them (names, colours)
# is still read from the pixels on screen. Any other picture (a removal's result, checked before it
# is kept; another photo) is looked at as it is. Measured on the 38 development photos of gcompris'
# animals, "how many animals are there?" before and after "make it moodier": the same answer for 30
# when the detector looked at the edited picture (the swans' 4 became 7, the cheetahs' 3 one), 36
# when it looks at the picture before (the bison's and the swans' differ in the naming's scores).

_UNMOVED: contextvars.ContextVar[Callable[[], tuple[np.ndarray, np.ndarray] | None] | None] = \
    contextvars.ContextVar("easel_unmoved_reference", default=None)


@contextlib.contextmanager
def unmoved_from(reference: Callable[[], tuple[np.ndarray, np.ndarray] | None] | None) -> Iterator[None]:
    """Within the block, the detector's looks at the picture on screen look at the one before the
    edits that moved no pixel instead: ``reference()`` (called at each look) gives ``(on screen,
    before)``, or None when the picture on screen was not made by such edits."""
    token = _UNMOVED.set(reference)
    try:
        yield
    finally:
        _UNMOVED.reset(token)


def unmoved_reference(rgb: np.ndarray) -> np.ndarray | None:
    """The picture before the light and colour edits that made ``rgb`` (8-bit RGB), when ``rgb`` is
    the picture on screen and the dialogue named one; else None."""
    from agent.perception.models import to_rgb8

    load = _UNMOVED.get()
    pair = load() if load is not None else None
    if pair is None:
        return None
    shown, before = (to_rgb8(p) for p in pair)
    if not shown.shape == rgb.shape == before.shape:
        return None
    # (the same buffer, as the edits' looks at the head pass it, needs no comparison of every pixel)
    same = shown.__array_interface__["data"][0] == rgb.__array_interface__["data"][0] and shown.strides == rgb.strides
    return before if same or np.array_equal(shown, rgb) else None
