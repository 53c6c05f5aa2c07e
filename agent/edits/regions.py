"""Where an edit applies: the words of a command's ``in <region>`` turned into a mask of the version
it applies to (DESIGN.md, "Regions"; the pixel side is :mod:`editor.masks`).

========================  ===============================================================
region words              mask
========================  ===============================================================
``left`` ... ``sky``      :func:`editor.masks.region_mask` (sides, halves, corners, the
                          centre, shadows/midtones/highlights, the sky)
``subject``               the cutout's soft alpha (:func:`editor.masks.from_cutout`), from
                          the app's cutout process when one is given, else u2netp here
``background``            its inverse
``selection``             what the person drew, as the caller keeps it (the dialogue's
                          :class:`agent.edits.selection.Selection`)
object words              each object :func:`agent.edits.objects.match_objects` finds, masked
                          to its edge (:func:`agent.edits.objects.object_mask`) and
                          feathered :data:`editor.masks.OBJECT_FEATHER` of the diagonal
``X in the background``,  the objects of X's kind that :mod:`agent.edits.depth` puts behind
``X in front``            (smaller and higher in the frame than the nearest) or in front; when
                          the boxes do not tell, :class:`RegionNotFound` asks to point
``everything except X``   ``1 - mask(X)``
========================  ===============================================================

What is not found is never replaced by the whole picture: :class:`RegionNotFound` says what was
looked for, and the dialogue turns it into a reply that asks the person to point at it. A phrase
that names one thing where there are several ("the dog" beside another dog) takes the surest, and
:attr:`Resolved.note` says which (its box goes on the canvas).
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from agent.edits import depth, objects
from agent.grammar.commands import (
    BACKGROUND,
    FACE,
    JOINED,
    SELECTION,
    SUBJECT,
    face_words,
    joined_regions,
    region_kind,
    region_parts,
    region_phrase,
)
from agent.perception.models import to_rgb8
from agent.perception.names_kept import unmoved_reference
from agent.perception.places import box_place, place_phrase
from agent.perception.things import ObjectNotFound
from agent.perception.vocabulary import counted
from editor import masks, ops

Box = tuple[int, int, int, int]
MIN_COVER = 0.001  # a region under this share of the picture is nothing to edit ("no shadows")
MIN_SUBJECT = 0.005  # a cutout alpha under this share of the picture found no subject
BOX_COLOR = "#33ccff"  # the boxes of the objects an edit used, on the canvas
OTHER_COLOR = "#999999"  # ... and of the ones it did not


class RegionNotFound(LookupError):
    """A region the words name is not in the picture (no sky, no dog, no selection). The message
    says so; ``overlays`` are boxes worth showing (a weak guess)."""

    def __init__(self, message: str, overlays: list[dict] | None = None):
        super().__init__(message)
        self.overlays = overlays or []


@dataclass
class Resolved:
    """A region as a mask, with what the person should be told about it."""

    mask: np.ndarray  # float32 (H, W) in [0, 1]
    phrase: str  # the region in words ("the dog on the left")
    overlays: list[dict] = field(default_factory=list)  # boxes of the objects used, for the canvas
    note: str = ""  # a sentence when the words were not enough to say which ("the one on the left")


# What was found on a version, by the hash of its pixels: the detector's matches for a phrase, each
# box's mask (as its bounding crop) and the subject's small mask. A second request about the same
# thing on the same pixels ("brighten the cat", "no, warmer") skips the models; the answer is the
# one the models would give again, so replaying a command from its parent makes the same pixels.
CACHE_SIZE = 16
_cache: OrderedDict = OrderedDict()
_cache_lock = threading.Lock()


def pixels_key(pixels: np.ndarray) -> str:
    """A digest of the pixels, shape and dtype (SHA-256, which this CPU computes in hardware: about
    25 ms for 12 megapixels, where BLAKE2b took 60)."""
    h = hashlib.sha256(f"{pixels.dtype.str}{pixels.shape}".encode())
    h.update(np.ascontiguousarray(pixels).data)
    return h.hexdigest()


_making: dict[tuple, threading.Event] = {}  # keys being made now: a second asker waits, not redoes


def _cached(key: tuple, make: Callable[[], object]):
    while True:
        with _cache_lock:
            if key in _cache:
                _cache.move_to_end(key)
                return _cache[key]
            busy = _making.get(key)
            if busy is None:
                _making[key] = threading.Event()
                break
        busy.wait()  # another thread (prepare, in the app's worker) is making it; then look again
    try:
        value = make()  # outside the lock: a model runs for a second or two
        with _cache_lock:
            _cache[key] = value
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
    finally:
        with _cache_lock:
            _making.pop(key).set()
    return value


def clear_cache() -> None:
    """Forget what was found (tests; a model swapped), the detector's kept outputs included."""
    from agent.perception.models import clear_forward_cache

    with _cache_lock:
        _cache.clear()
    clear_forward_cache()


def _object_mask(pixels: np.ndarray, box: Box, key: str) -> np.ndarray:
    """:func:`agent.edits.objects.object_mask`, kept as its bounding crop for the same pixels."""

    def make():
        m = objects.object_mask(pixels, box)
        ys, xs = np.flatnonzero(m.any(axis=1)), np.flatnonzero(m.any(axis=0))
        if len(ys) == 0:
            return 0, 0, np.zeros((0, 0), bool)
        return int(ys[0]), int(xs[0]), m[ys[0]:ys[-1] + 1, xs[0]:xs[-1] + 1].copy()

    y, x, crop = _cached((key, "mask", tuple(int(v) for v in box)), make)
    out = np.zeros(pixels.shape[:2], bool)
    out[y:y + crop.shape[0], x:x + crop.shape[1]] = crop
    return out


PREPARE_OBJECTS = 3  # objects masked ahead on a version just opened (the largest the detector sees)


def prepare(pixels: np.ndarray, *, limit: int = PREPARE_OBJECTS, stop: Callable[[], bool] | None = None) -> int:
    """Mask ahead of any request the ``limit`` largest objects the detector sees on ``pixels`` (a
    version just opened, on a thread of the app's), so that a first "brighten the cat" finds its
    mask made: u2netp is most of a regional edit's time (about 0.25 s a mask on an idle 2-core
    machine, three times that when it is busy). The masks are the ones :func:`object_region` would
    make, kept under the same keys, so what an edit does does not depend on whether they were
    made ahead. ``stop()``, asked before each step, ends it early (a request is running: it should
    have the cores; one that needs a mask not made yet makes it). Returns how many were masked."""
    if stop is not None and stop():
        return 0
    key = pixels_key(pixels)
    boxes = [tuple(int(v) for v in d.box) for d in objects.detect(to_rgb8(pixels), min_score=objects.MIN_SCORE)]
    boxes.sort(key=lambda b: -(b[2] - b[0]) * (b[3] - b[1]))
    made = 0
    for box in boxes[:limit]:
        if stop is not None and stop():
            break
        _object_mask(pixels, box, key)
        made += 1
    return made


def _box_overlay(box: Box, label: str, color: str = BOX_COLOR) -> dict:
    return {"kind": "box", "target": "current", "box": [int(v) for v in box], "color": color, "label": label}


def which_one(box: Box, others: list[Box]) -> str:
    """Where ``box`` is among ``others`` of its kind, in words: "on the left", "in the middle"."""
    centres = sorted([(b[0] + b[2]) / 2 for b in others] + [(box[0] + box[2]) / 2])
    x = (box[0] + box[2]) / 2
    if x == centres[0]:
        return "on the left"
    if x == centres[-1]:
        return "on the right"
    return "in the middle"


def not_found_sentence(phrase: str, exc: ObjectNotFound) -> str:
    """One sentence for a thing not found: the detector's own reason when it says more than that
    ("I can't tell which object 'the sea' means...", "which 'the man' is next to"), else the plain
    "I couldn't find the dog in this picture" (not the same sentence twice).

    >>> not_found_sentence("the dog", ObjectNotFound("I couldn't find 'the dog' in the picture"))
    "I couldn't find the dog in this picture"
    """
    said = str(exc)
    return f"I couldn't find {phrase} in this picture" if said.endswith("in the picture") else said


def object_region(pixels: np.ndarray, words: str) -> Resolved:
    """The mask of the objects ``words`` names; :class:`RegionNotFound` when none is found or the
    only candidate is weak (the detector's second look), with the guess's box to show."""
    phrase = region_phrase(words)
    key = pixels_key(pixels)
    looked_for, where = depth.depth_words(words)  # "the people in the background": depth from the boxes

    def match():
        try:
            return objects.match_objects(pixels, looked_for)
        except ObjectNotFound as exc:
            return exc

    found = _cached((key, "match", looked_for), match)
    if isinstance(found, ObjectNotFound):
        raise RegionNotFound(not_found_sentence(phrase, found)) from None
    h, w = pixels.shape[:2]
    hard = np.zeros((h, w), bool)
    overlays: list[dict] = []
    notes: list[str] = []
    for m in found:
        if m.weak:
            raise RegionNotFound(
                f"I'm not sure I see {phrase}: the best guess is weak (its box is on the picture)",
                [_box_overlay(b, f"{m.label}?", OTHER_COLOR) for b in m.boxes])
        if where is not None:
            every = list(m.boxes) + [b for b in m.others if b not in m.boxes]
            try:
                chosen, said = depth.pick(every, where, plural=m.plural, label=m.label, image_height=h)
            except depth.DepthUnclear as exc:
                shown = " (its box is on the picture)" if len(exc.boxes) == 1 else " (their boxes are on the picture)"
                raise RegionNotFound(str(exc) + shown,
                                     [_box_overlay(b, f"{m.label}?", OTHER_COLOR) for b in exc.boxes]) from None
            m = dataclasses.replace(m, boxes=chosen, others=[b for b in every if b not in chosen], plural=True)
            notes.append(said)
        for box in m.boxes:
            hard |= _object_mask(pixels, box, key)
            overlays.append(_box_overlay(box, m.label))
        if where is not None:
            overlays += [_box_overlay(b, f"other {m.label}", OTHER_COLOR) for b in m.others]
            continue
        if m.others and not m.plural and not m.positioned:
            notes.append(f"I see {counted(len(m.others) + 1, m.label)} and changed the one {which_one(m.boxes[0], m.others)} "
                         "(its box is on the picture); say which if you meant another")
        if m.plural and len(m.boxes) == 1 and not m.others and re.search(r"\b(?:both|two|three|four|five)\b", words):
            # gcompris' camels: "make both of them warmer" warmed the one camel found and said "Made both of
            # the camels warmer": the words counted more than were found, so nothing is changed
            raise RegionNotFound(f"I found only one {m.label}, {place_phrase(box_place(m.boxes[0], (w, h)))} (its box is "
                                 "on the picture)", [_box_overlay(m.boxes[0], m.label)])
        if m.plural and len(m.boxes) == 1 and not m.others and not re.search(r"\b(?:one|1)\b", words):
            # gcompris' swans: "make the swans brighter" found one (the other and the cygnets missed) and
            # said "Brightened the swans"
            notes.append(f"I found only one {m.label}, {place_phrase(box_place(m.boxes[0], (w, h)))} (its box is on the picture); if "
                         "there are more, draw around them with the trace tool (T) and say what to do there")
        overlays += [_box_overlay(b, f"other {m.label}", OTHER_COLOR) for b in m.others if not m.plural]
    if not hard.any():
        raise RegionNotFound(f"I found {phrase} but could not tell its outline from the rest", overlays)
    return Resolved(_feathered(hard), phrase, overlays, ". ".join(notes) + ("." if notes else ""))


def face_region(pixels: np.ndarray, words: str) -> Resolved:
    """The mask of the faces ``words`` names ("face": the biggest, or the one placed; "faces": every
    one); :class:`RegionNotFound` when the face detector sees none."""
    from agent.perception import faces

    part, every, where = face_words(words)
    found = _cached((pixels_key(pixels), "faces"), lambda: faces.find_faces(pixels))
    if not found:
        raise RegionNotFound("I don't see a face in this picture" + (", so I can't tell skin from the rest"
                                                                     if part == "skin" else ""))
    chosen = faces.chosen(found, every, where)
    overlays = [_box_overlay(f.box, "face") for f in chosen]
    overlays += [_box_overlay(f.box, "other face", OTHER_COLOR) for f in found if f not in chosen]
    note = ""
    if len(found) > 1 and not every and where is None:
        note = (f"I see {len(found)} faces and changed the biggest (its box is on the picture); say “the face on "
                "the left” or “the faces” if you meant another or all.")
    if part == "skin":  # each one's skin within their silhouette (the object masks the edits of "the man" use)
        people = faces.people_in(pixels)
        held = [faces.holder(f, people) for f in chosen]
        key = pixels_key(pixels)
        mask = faces.skin_mask(pixels, chosen, [_object_mask(pixels, p.box, key) if p else None for p in held])
    else:
        mask = faces.face_mask(pixels, chosen)
    return Resolved(mask, region_phrase(words), overlays, note)


FEATHER_STEP = 3.0  # a feather wider than twice this many pixels is computed on a copy 1/k the size


def _feathered(hard: np.ndarray) -> np.ndarray:
    """``masks.feather(hard, OBJECT_FEATHER * diagonal)``, computed on the part around the objects
    only (the same values: farther than the ramp from every edge a mask keeps its 0), which on a
    12-megapixel photo of a small thing saves most of the blur's time.

    A ramp ``px`` wider than ``2*FEATHER_STEP`` (photos over about 1.5 megapixels) is blurred on
    a copy ``k = floor(px/FEATHER_STEP)`` times smaller (area-averaged) and upsampled linearly:
    the same ramp within a pixel or two, where a 40-pixel tent blur of a 12-megapixel mask took a
    quarter of a second. Pixels farther than ``px/2 + 2k`` from the mask's edge keep 0 or 1."""
    h, w = hard.shape
    px = masks.OBJECT_FEATHER * math.hypot(h, w)
    k = int(px // FEATHER_STEP) if px > 2 * FEATHER_STEP else 1
    pad = int(math.ceil(px)) + 2 + 2 * k
    ys, xs = np.nonzero(hard.any(axis=1))[0], np.nonzero(hard.any(axis=0))[0]
    y1, y2 = max(0, ys[0] - pad), min(h, ys[-1] + 1 + pad)
    x1, x2 = max(0, xs[0] - pad), min(w, xs[-1] + 1 + pad)
    out = np.zeros((h, w), np.float32)
    part = hard[y1:y2, x1:x2]
    if k == 1:
        out[y1:y2, x1:x2] = masks.feather(part, px)
        return out
    ph, pw = -(y2 - y1) % k, -(x2 - x1) % k  # a whole number of k-pixel cells: no half-cell shift
    part = cv2.copyMakeBorder(part.astype(np.float32), 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    small = cv2.resize(part, (part.shape[1] // k, part.shape[0] // k), interpolation=cv2.INTER_AREA)
    # the area average (a k-wide box) and the linear upsampling (a 2k-wide tent) blur too: the small
    # copy's tent is narrowed so that the three together spread as one tent px wide (variance px^2/24)
    narrow = math.sqrt(max(0.0, px * px - 6 * k * k)) / k
    soft = cv2.resize(masks.feather(small, narrow), (part.shape[1], part.shape[0]),
                      interpolation=cv2.INTER_LINEAR)[:y2 - y1, :x2 - x1]
    soft[soft < 1e-6] = 0
    soft[soft > 1 - 1e-6] = 1
    out[y1:y2, x1:x2] = soft
    return out


def subject_region(pixels: np.ndarray, cutout: Callable[[np.ndarray], np.ndarray] | None = None) -> np.ndarray:
    """The main subject's soft mask: the alpha of ``cutout(pixels)`` (the app's cutout process)
    or u2netp's subject mask here; :class:`RegionNotFound` when it finds no subject."""
    if cutout is not None:
        mask = masks.from_cutout(cutout(pixels))
    else:  # ops.subject_mask, its small prediction kept for the same pixels
        small = _cached((pixels_key(pixels), "subject"), lambda: ops.predict_mask_small(ops.mask_input(pixels)))
        mask = ops.upscale_mask(small, pixels.shape).astype(np.float32) / np.float32(255)
    if float(mask.mean()) < MIN_SUBJECT:
        raise RegionNotFound("I couldn't find a main subject in this picture")
    return mask


SKY_SURE_AREA = 0.05  # a sky this share of the picture or more is taken as found,
SKY_SURE_TOP = 0.5  # ... or one along this share of the top edge; a smaller patch is asked about


def _small_sky(mask: np.ndarray) -> bool:
    """Whether the sky found is only a small patch at the top (under :data:`SKY_SURE_AREA` of the
    picture and along under :data:`SKY_SURE_TOP` of the top edge): a pale panel on a garage wall, a
    blue board, or sky seen through a gap, which the person is asked about, not edited unseen.

    >>> m = np.zeros((100, 100), np.float32); m[:10, :30] = 1
    >>> _small_sky(m), _small_sky(np.pad(m[:10], ((0, 90), (0, 0))) + (np.arange(100) < 5)[:, None])
    (True, False)
    """
    found = mask >= 0.5
    return float(found.mean()) < SKY_SURE_AREA and float(found[0].mean()) < SKY_SURE_TOP


def resolve(region: str, pixels: np.ndarray, *, selection: np.ndarray | None = None,
            cutout: Callable[[np.ndarray], np.ndarray] | None = None) -> Resolved:
    """The mask of ``region`` (a command's region words) on ``pixels``.

    ``selection`` is the mask of what the person drew (None: nothing is drawn); ``cutout`` the
    function that cuts out the main subject (its alpha is the subject's mask). Raises
    :class:`RegionNotFound` when the region is not in the picture, or covers almost none of it.

    Examples
    --------
    >>> img = np.zeros((4, 8, 3), np.uint8)
    >>> r = resolve("everything except left", img)
    >>> r.phrase, [round(float(v), 2) for v in r.mask[0]]
    ('everything except the left side', [0.0, 0.0, 0.0, 0.62, 1.0, 1.0, 1.0, 1.0])
    """
    inverted, words = region_parts(region)
    kind = region_kind(words)
    phrase = region_phrase(words)
    overlays: list[dict] = []
    note = ""
    if kind == JOINED:  # "the dog and sky": each part found on its own, one mask of both
        found = [resolve(part, pixels, selection=selection, cutout=cutout) for part in joined_regions(words)]
        mask = np.maximum.reduce([f.mask for f in found])
        overlays = [o for f in found for o in f.overlays]
        note = " ".join(f.note for f in found if f.note)
    elif kind == FACE:
        found = face_region(pixels, words)
        mask, overlays, note = found.mask, found.overlays, found.note
    elif kind == "named":
        # the sky, the clouds, the greenery of the picture before the light and colour edits that made
        # the one on screen: "give the sky a sunset look" warmed the sky, and then its darkening found none
        ref = unmoved_reference(to_rgb8(pixels)) if words.split(" ")[0] in masks.FOUND_NAMES else None
        mask = masks.region_mask(pixels if ref is None else ref, words)
        if not mask.any():
            raise RegionNotFound(f"I couldn't find {phrase} in this picture")
        if words == "sky" and _small_sky(mask):
            raise RegionNotFound("I'm not sure this picture shows sky: the only sky-like part is a small "
                                 "patch at the top (its box is on the picture)",
                                 [_box_overlay(masks.bounding_box(mask) or masks.bounding_box(mask, 1e-6), "sky?", OTHER_COLOR)])
    elif kind in (SUBJECT, BACKGROUND):
        mask = subject_region(pixels, cutout)
        if kind == BACKGROUND:
            mask = masks.invert(mask)
    elif kind == SELECTION:
        if selection is None:
            raise RegionNotFound("nothing is selected")
        if selection.shape != pixels.shape[:2]:
            raise RegionNotFound("the selection was drawn on a picture of another size")
        mask = masks.check_mask(selection).astype(np.float32)
    else:
        found = object_region(pixels, words)
        mask, phrase, overlays, note = found.mask, found.phrase, found.overlays, found.note
    if inverted:
        mask = masks.invert(mask)
    cover = float(mask.mean())
    if cover < MIN_COVER:
        raise RegionNotFound(f"only {cover:.2%} of this picture is in {region_phrase(region)}", overlays)
    return Resolved(mask, region_phrase(region), overlays, note)
