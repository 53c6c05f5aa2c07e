"""Captions controlled by a mouse trace, and the inverse: where is what a caption talks about.

:func:`caption_trace` follows the trace in time order: the trace is cut into segments that dwell on
one region (:mod:`agent.describe.traces`); a stroke that goes on where the pen was lifted continues the
segment before it (one thing traced in two strokes), and pieces of one dwell off the detections are
named together. Each segment is grounded to the object the detector found under it
(or, where there is none, to a region described by its position and colour, with sky and ground
told apart by heuristics), and the caption says one sentence per segment in the same order, as
people wrote them in Localized Narratives ("In this picture I can see a grey cat on the left. To
its right there is a white cup."). Each clause comes back with its box, its
times and a display colour so the GUI paints the words and their part of the trace alike.

:func:`locate` is the inverse (MITR's controlled trace generation, done here by grounding rather
than by a learned model): the caption is read into noun phrases in order, each is grounded to a
detection (label synonyms, colour words, position words and "to its left/right" relations) or to a
region, and a trace in Localized Narratives form is drawn through the boxes in that order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from agent.describe.pieces import continued, join_segments, run_name, touching_runs, union
from agent.describe.traces import segment_trace, synthetic_trace, to_ln, validate_trace
from agent.describe.words import (  # noqa: F401  (re-exported: callers import them from here)
    PALETTE,
    Caption,
    Segment,
    article,
    compose,
    describe_region,
    describe_regions,
    describe_scene,
    describe_small_things,
    is_small_scene,
    position_words,
    relation_words,
    where_clause,
)
from agent.perception.models import Detection, to_rgb8
from agent.perception.things import (  # SPLIT
    MIN_SCORE,
    REGION_NOUNS,
    Phrase,
    clean_detections,
    detect,
    detect_in,
    inside_share,
    overlaps_known,
    parse_phrases,
)

MAX_SECOND_LOOKS = 6


# -- perception helpers ------------------------------------------------------------------------------


# -- caption from a trace ---------------------------------------------------------------------------


def caption_trace(pixels: np.ndarray, trace: object, *, detections: list[Detection] | None = None,
                  pause: float = 0.6) -> Caption:
    """Describe what the trace passes over, in the order it passes over it.

    Parameters
    ----------
    pixels : ndarray
        The image (any Easel image: grey or RGB(A), 8 or 16 bit).
    trace : Localized Narratives trace
        ``[[{"x", "y", "t"}, ...], ...]`` (validated; :class:`agent.describe.traces.TraceError` if wrong).
    detections : list of Detection, optional
        Objects already detected in ``pixels`` (else the detector runs).

    Returns
    -------
    Caption
        One clause per segment of the trace.

    Examples
    --------
    >>> from skimage import data
    >>> tr = [[{"x": 0.4, "y": 0.5, "t": 0.0}, {"x": 0.5, "y": 0.4, "t": 0.5},
    ...        {"x": 0.45, "y": 0.6, "t": 1.0}]]
    >>> caption_trace(data.chelsea(), tr).text    # doctest: +SKIP
    'In this picture I can see a brown cat in the middle.'
    """
    strokes = validate_trace(trace)
    rgb = to_rgb8(pixels)
    h, w = rgb.shape[:2]
    if h < 2 or w < 2:
        raise ValueError(f"the image is too small to describe ({w}x{h})")
    dets = list(detect(rgb) if detections is None else detections)

    def norm(b):
        return (b[0] / w, b[1] / h, b[2] / w, b[3] / h)

    # first without cutting the background into grid cells, so that a dwell on something the
    # detector missed is one piece however many cells it crosses; then a second look, closer
    segs = segment_trace(strokes, regions=[norm(d.box) for d in dets], pause=pause, background_grid=False)
    found = []
    # the longest background dwells first, and at most a few: each look costs a detector run; a
    # dwell on a small part of a box that holds other things (a person in front of a "table"
    # that spans half the picture) is looked at again too
    looks = [s for s in segs if s.region < 0 or _small_part_of_holder(s, dets, w, h)]
    dwells: list = []  # (dwell box, on a holder, what the second look found or None)
    for s in sorted(looks, key=lambda s: s.t0 - s.t1)[:MAX_SECOND_LOOKS]:
        known = [k for k in dets + [d for _, _, d in dwells if d is not None]
                 if s.region < 0 or k is not dets[s.region]]
        xy = dwell_points(s.points) * (w, h)
        pbox = (int(xy[:, 0].min()), int(xy[:, 1].min()), int(np.ceil(xy[:, 0].max())), int(np.ceil(xy[:, 1].max())))
        # close first (the loop usually covers most of the thing), then wider; the thing found
        # must hold most of the dwell (a loop over it; the line from one thing to the next that
        # a one-stroke trace draws is left out of the dwell)
        hit = None
        for pad in (0.4, 1.0):
            hit = next((d for d in sorted(detect_in(rgb, pbox, MIN_SCORE, pad), key=lambda d: -d.score)
                        if _share_inside(xy, d.box) >= 0.5 and not overlaps_known(d, known)), None)
            if hit is not None:
                break
        dwells.append((pbox, s.region >= 0, hit))
    found = _second_looks_kept(rgb, dwells, dets)
    dets = clean_detections(dets + found) if found else dets
    segs = continued(segment_trace(strokes, regions=[norm(d.box) for d in dets], pause=pause), pause)
    from agent.describe.off_object import split_off_object
    from agent.perception.naming import name_objects, name_regions

    # a dwell in a box but off its object (the flag behind the astronaut's shoulder) is not the object
    segs = split_off_object(segs, rgb, dets)
    segs = _off_the_place(segs, rgb, dets)

    # What the trace dwells on where the detector found nothing may still be a thing the
    # classifier knows (a rocket, a tiger): named when it is sure, else described as a region.
    # Background pieces that follow one another and touch (one thing traced in two strokes, or
    # a dwell the grid cut in two) are first named together: when together they are a thing,
    # they are one piece of trace; else each piece is named on its own.
    runs = touching_runs(segs, pause)
    background = [run for run in runs if segs[run[0]].region < 0]
    # each run is named as a whole and by its parts, the surest name of a thing winning (the
    # classifier may know a rocket from one half of it better than from the whole)
    parts = [[union([segs[i].box for i in run])]
             + [b for i in run for b in ([segs[i].box] if len(run) > 1 else []) + getattr(segs[i], "parts", [])]
             for run in background]
    flat = name_regions(rgb, [_pixel_box(b, w, h) for ps in parts for b in ps], known=dets)
    pieces = [list(np.cumsum([1] + [1 + len(getattr(segs[i], "parts", [])) for i in run[:-1]])) if len(run) > 1 else []
              for run in background]
    durations = [[segs[i].t1 - segs[i].t0 for i in run] for run in background]
    names = iter(run_name(flat[k - len(ps):k], at, ts)
                 for ps, at, ts, k in zip(parts, pieces, durations, np.cumsum([len(ps) for ps in parts])))
    merged: list = []
    things = {}
    alone = []  # pieces of a run that is no thing as a whole: each is named on its own
    for run in runs:
        n = next(names) if segs[run[0]].region < 0 else None
        if n is not None:
            things[len(merged)] = n
            merged.append(join_segments([segs[i] for i in run]))
        elif segs[run[0]].region >= 0:
            merged.append(segs[run[0]])
        else:
            alone += range(len(merged), len(merged) + len(run)) if len(run) > 1 else []
            merged += [segs[i] for i in run]
    if alone:
        boxes = [_pixel_box(merged[i].box, w, h) for i in alone]
        things.update({i: n for i, n in zip(alone, name_regions(rgb, boxes, known=dets)) if n is not None})
    return compose(rgb, merged, dets, name_objects(rgb, dets), things)


# A detection whose box covers this share of the picture is the place the rest stands on (a
# "dining table" under a cup and its saucer), not a thing pointed at.
FILLS = 0.8


def _off_the_place(segs, rgb: np.ndarray, dets: list[Detection]) -> list:
    """``segs`` with each small dwell (a fifth of the box at most) on a detection that fills the
    picture (:data:`FILLS`) given to the background when it shows a thing of its own, one the
    classifier names or that stands out (:func:`agent.perception.naming.name_regions`): a saucer on a
    table whose box is the whole photo is "a red object", not "a red table"
    (bench/trace.py --photos 60). A dwell on the table top itself stays the table's."""
    from agent.perception.naming import name_regions

    h, w = rgb.shape[:2]
    todo, boxes = [], []
    for k, s in enumerate(segs):
        if s.region < 0:
            continue
        b = dets[s.region].box
        area = (b[2] - b[0]) * (b[3] - b[1])
        xy = dwell_points(s.points) * (w, h)  # the dwell, not the travel to the next thing
        dwell = (int(xy[:, 0].min()), int(xy[:, 1].min()), int(np.ceil(xy[:, 0].max())), int(np.ceil(xy[:, 1].max())))
        if area >= FILLS * w * h and (dwell[2] - dwell[0]) * (dwell[3] - dwell[1]) <= 0.2 * area:
            todo.append(k)
            boxes.append(dwell)
    if not todo:
        return segs
    named = name_regions(rgb, boxes, known=dets)
    for k, n in zip(todo, named):
        if n is not None:
            segs[k].region = -1
    return segs


def _second_looks_kept(rgb: np.ndarray, dwells: list, known: list[Detection] = ()) -> list[Detection]:
    """What second looks found that is kept, from ``(dwell box, on a holder, hit or None)``.

    A second look is a crop the detector was not made for: it calls a rocket a "boat" at 0.66.
    What it finds is kept when the classifier agrees, when it is a person (the classifier has no
    word for people), when the detector is sure or sure on a closer look
    (:func:`agent.perception.naming.name_objects`); not when neither model names it (a patch of gravel the
    detector half-sees is "an object" to nobody). Where the classifier renames it, the name must
    be what the dwell itself shows (:func:`agent.perception.naming.name_regions`): over a wooden table the
    detector saw a "dining table" or a "laptop" around a rocket, which the classifier, shown that
    box with the table or the cat beside it, called a "cat" or a "syringe" (bench/trace.py's dev
    part 3). A dwell on a small part of a holder (a "bed" that is a wooden table) where nothing
    was kept is the thing the classifier names the dwell, if it does. ``known`` are the things
    found before: a word for one of them beside the dwell names that one, not the dwell (a table
    beside a cup called "cup")."""
    from agent.perception.naming import DETECTOR_SURE, PERSON_CLOSER_LOOK, name_objects, name_regions

    hits = [d for _, _, d in dwells if d is not None]
    names = iter(name_objects(rgb, hits, context=known))
    renamed = []
    kept: list[Detection] = []
    for k, (_, _, d) in enumerate(dwells):
        n = next(names) if d is not None else None
        if n is None:
            continue
        if n.source == "classifier" and d.label != "person":
            renamed.append((k, d, n))
        elif (d.label == "person" or n.source == "both" or d.score >= DETECTOR_SURE
              or (n.source == "detector" and n.confidence >= PERSON_CLOSER_LOOK)):
            kept.append(d)
    on_holder = [k for k, (_, holder, d) in enumerate(dwells) if holder and not any(d is x for x in kept)]
    todo = sorted({k for k, _, _ in renamed} | set(on_holder))
    shown = dict(zip(todo, name_regions(rgb, [dwells[k][0] for k in todo], known=known))) if todo else {}
    for k, d, n in renamed:
        r = shown.get(k)
        if r is None or r.source != "classifier" or r.noun == n.noun:
            kept.append(d)
            on_holder = [j for j in on_holder if j != k]
    for k in on_holder:
        r = shown.get(k)
        if r is not None and r.source == "classifier":
            x1, y1, x2, y2 = dwells[k][0]
            kept.append(Detection(r.noun, r.confidence, (x1, y1, x2, y2)))
    return kept


def dwell_points(points: np.ndarray) -> np.ndarray:
    """The ``(x, y)`` of the points where a piece of trace dwells: points moving more than three
    times the piece's median speed are the pen travelling from one thing to the next."""
    xy = np.asarray(points, np.float64)[:, :2]
    if len(xy) < 5:
        return xy
    t = np.asarray(points, np.float64)[:, 2]
    step = np.linalg.norm(np.diff(xy, axis=0), axis=1) / np.maximum(np.diff(t), 1e-3)
    speed = np.maximum(np.r_[step[0], step], np.r_[step, step[-1]])  # a point moves as its faster side
    slow = speed <= 3 * np.median(speed)
    return xy[slow] if slow.sum() >= 3 else xy


def _share_inside(xy: np.ndarray, box) -> float:
    inside = (xy[:, 0] >= box[0]) & (xy[:, 0] <= box[2]) & (xy[:, 1] >= box[1]) & (xy[:, 1] <= box[3])
    return float(inside.mean()) if len(xy) else 0.0


def _small_part_of_holder(s, dets: list[Detection], w: int, h: int) -> bool:
    """A dwell on a detection that holds another detection, covering under a fifth of it."""
    if s.region < 0:
        return False
    d = dets[s.region]
    if not any(o is not d and inside_share(o.box, d.box) > 0.7 for o in dets):
        return False
    b = s.box
    dwell = (b[2] - b[0]) * w * (b[3] - b[1]) * h
    return dwell < 0.2 * (d.box[2] - d.box[0]) * (d.box[3] - d.box[1])


def _pixel_box(b, w: int, h: int) -> tuple[int, int, int, int]:
    x1, y1 = int(b[0] * w), int(b[1] * h)
    return (x1, y1, max(x1 + 1, int(np.ceil(b[2] * w))), max(y1 + 1, int(np.ceil(b[3] * h))))


def reading_order_trace(pixels: np.ndarray, dets: list[Detection] | None = None) -> list[np.ndarray]:
    """A trace over the image in reading order: its objects row by row, left to right; or, with no
    objects, three sweeps (top, middle, bottom)."""
    rgb = to_rgb8(pixels)
    h, w = rgb.shape[:2]
    dets = detect(rgb) if dets is None else dets
    if dets:
        boxes = [(d.box[0] / w, d.box[1] / h, d.box[2] / w, d.box[3] / h) for d in dets]
        # rows: objects whose centres are within a third of the image height read left to right
        order = sorted(range(len(boxes)), key=lambda i: (int(((boxes[i][1] + boxes[i][3]) / 2) * 3),
                                                         boxes[i][0]))
        return synthetic_trace([boxes[i] for i in order], cover=0.6)
    bands = [(0.05, 0.02, 0.95, 0.3), (0.05, 0.36, 0.95, 0.64), (0.05, 0.7, 0.95, 0.98)]
    return synthetic_trace(bands, cover=0.9)


def describe_image(pixels: np.ndarray) -> Caption:
    """What ``describe`` says with no trace drawn: the main subject and up to four other things
    with where they are (:func:`agent.describe.words.describe_scene`); when every thing found is
    small, the scene first and the things after it (:func:`agent.describe.words.describe_small_things`);
    with no objects, the image's regions top to bottom, one sentence each."""
    from agent.perception.naming import name_objects, whole_image_thing

    rgb = to_rgb8(pixels)
    dets = detect(rgb)
    if dets and not is_small_scene(dets, rgb.shape[1], rgb.shape[0]):
        return describe_scene(rgb, dets, name_objects(rgb, dets))
    if dets:  # only small things: the scene is what the photo shows, they come after it
        return describe_small_things(rgb, dets, name_objects(rgb, dets), whole_image_thing(rgb))
    return describe_regions(rgb, whole_image_thing(rgb))


# -- locate: from a caption to boxes and a trace ---------------------------------------------------------


_TARGETS = {"left": (0.2, None), "right": (0.8, None), "top": (None, 0.2), "bottom": (None, 0.8),
            "centre": (0.5, 0.5)}


def _position_target(position: str) -> tuple[float | None, float | None]:
    tx = ty = None
    for word in position.split():
        x, y = _TARGETS.get(word, (None, None))
        tx = x if x is not None else tx
        ty = y if y is not None else ty
    return tx, ty


def _region_box(position: str | None, band: tuple[float, float], w: int, h: int):
    x1, x2 = 0.0, 1.0
    y1, y2 = band
    if position:
        tx, ty = _position_target(position)
        if tx is not None and tx != 0.5:
            x1, x2 = (0.0, 0.4) if tx < 0.5 else (0.6, 1.0)
        if ty is not None and ty != 0.5:
            y1, y2 = (0.0, 0.4) if ty < 0.5 else (0.6, 1.0)
    return (int(x1 * w), int(y1 * h), int(x2 * w), int(y2 * h))


@dataclass
class Located:
    """What :func:`locate` found: the phrases, a box per grounded phrase (pixels), and a trace
    through the boxes in caption order (Localized Narratives form)."""

    phrases: list[Phrase]
    boxes: list[tuple[int, int, int, int] | None]  # None where a phrase could not be grounded
    trace: list[list[dict]]  # one stroke per grounded phrase, in order
    colors: list[str] = field(default_factory=list)

    def strokes_by_phrase(self) -> list[list[list[float]] | None]:
        """Per phrase, its stroke as normalised ``[[x, y], ...]`` (None when it was not grounded)."""
        it = iter(self.trace)
        return [None if b is None else [[p["x"], p["y"]] for p in next(it)] for b in self.boxes]

    def as_json(self) -> dict:
        return {"phrases": [{"text": p.text, "label": p.label, "box": list(b) if b else None,
                             "color": c, "points": pts}
                            for p, b, c, pts in zip(self.phrases, self.boxes, self.colors,
                                                    self.strokes_by_phrase())],
                "trace": self.trace}

    @property
    def found_boxes(self) -> list[tuple[int, int, int, int]]:
        return [b for b in self.boxes if b is not None]


def locate(pixels: np.ndarray, caption: str, *, detections: list[Detection] | None = None) -> Located:
    """Where each thing the caption names is, in the caption's order, and a trace through them.

    Parameters
    ----------
    pixels : ndarray
        The image.
    caption : str
        Free text ("a grey cat on the left and a white cup to its right").

    Returns
    -------
    Located
        ``boxes[i]`` is the box of ``phrases[i]`` in pixels (None when nothing matched); ``trace``
        circles each found box in order (empty if nothing was found).
    """
    if not isinstance(caption, str) or not caption.strip():
        raise ValueError("the caption is empty")
    rgb = to_rgb8(pixels)
    h, w = rgb.shape[:2]
    phrases = parse_phrases(caption)
    dets = list(detect(rgb, min_score=0.3) if detections is None else detections)
    weak: list[Detection] | None = None
    named: list[str] | None = None
    colours: dict[int, str] = {}
    light = None  # the photo's white balance and white level, once a colour is needed
    boxes: list[tuple[int, int, int, int] | None] = []
    used: set[int] = set()
    prev = None
    for p in phrases:
        if p.kind == "region":
            box = _region_box(p.position, REGION_NOUNS[p.label], w, h)
            boxes.append(box)
            prev = box
            continue
        if named is None:  # what captions call each detection (a "bowl" that is a cup)
            from agent.perception.naming import name_objects

            named = [n.noun for n in name_objects(rgb, dets)]
        cands = [i for i, d in enumerate(dets) if d.label == p.label
                 or (i < len(named) and named[i] == p.label)]
        if not cands:
            if weak is None:  # look again with a lower threshold only when needed
                weak = [d for d in detect(rgb, min_score=0.12) if d.label not in {x.label for x in dets}]
            extra = [d for d in weak if d.label == p.label]
            if extra:
                dets.append(extra[0])
                cands = [len(dets) - 1]
        if not cands:
            box = _region_box(p.position, (0.0, 1.0), w, h) if p.position else None
            boxes.append(box)
            prev = box or prev
            continue
        best, best_score = cands[0], -1e9
        for i in cands:
            d = dets[i]
            cx, cy = (d.box[0] + d.box[2]) / 2 / w, (d.box[1] + d.box[3]) / 2 / h
            score = d.score - (0.6 if i in used else 0.0)
            if p.colour:
                if i not in colours:  # the colour a caption gives it (agent.perception.naming)
                    from agent.perception.colour_terms import photo_light
                    from agent.perception.naming import object_colour

                    light = light or photo_light(rgb)
                    colours[i] = object_colour(rgb, d.box, d.label, light=light)
                score += 0.4 if colours[i] == p.colour else 0.0
            if p.position:
                tx, ty = _position_target(p.position)
                score -= (abs(cx - tx) if tx is not None else 0) + (abs(cy - ty) if ty is not None else 0)
            if p.relation and prev is not None:
                pcx, pcy = (prev[0] + prev[2]) / 2 / w, (prev[1] + prev[3]) / 2 / h
                ok = {"left": cx < pcx, "right": cx > pcx, "above": cy < pcy, "below": cy > pcy}[p.relation]
                score += 0.5 if ok else -0.5
            if score > best_score:
                best, best_score = i, score
        used.add(best)
        box = tuple(int(v) for v in dets[best].box)
        boxes.append(box)
        prev = box
    # one stroke per grounded phrase (the pen lifts in between), so stroke i belongs to the i-th box
    strokes, t = [], 0.0
    for b in boxes:
        if b is None:
            continue
        s = synthetic_trace([(b[0] / w, b[1] / h, b[2] / w, b[3] / h)], cover=1.0)[0]
        s[:, 2] += t
        t = float(s[-1, 2]) + 0.4
        strokes.append(s)
    colors = [PALETTE[i % len(PALETTE)] for i in range(len(phrases))]
    return Located(phrases, boxes, to_ln(strokes), colors)


# -- the dialogue handler -------------------------------------------------------------------------------


def describe_handler(manager, command):
    """``describe``: caption the user's trace if one is drawn (``manager.context.trace``), else the
    whole image in reading order; overlays and coloured segments go in ``TurnResult.data``."""
    from agent.describe.traces import TraceError
    from agent.grammar.turns import TurnResult

    utterance = command.format()
    if manager.document is None:
        return TurnResult(utterance, "Open an image first, then ask me to describe it.", command, ok=False)
    pixels = manager.document.pixels()
    trace = manager.context.trace
    try:
        caption = caption_trace(pixels, trace) if trace else describe_image(pixels)
    except TraceError as exc:
        return TurnResult(utterance, f"I could not read the trace: {exc}", command, ok=False)
    except ValueError as exc:
        return TurnResult(utterance, f"I could not describe it: {exc}", command, ok=False)
    overlays = []
    for s in caption.segments:
        if trace:
            overlays.append({"kind": "trace", "target": "current", "points": s.points,
                             "color": s.color, "label": s.label})
        overlays.append({"kind": "box", "target": "current", "box": list(s.box), "color": s.color,
                         "label": s.label})
    data = {"overlays": overlays, "segments": caption.pieces(), "caption": caption.as_json()}
    topic = first_thing(caption.segments, pixels.shape)
    if topic:  # "what colour is it?", "make it brighter" next: the thing the caption led with
        manager.context.topic = topic
    return TurnResult(utterance, caption.text, command, data=data)


def first_thing(segments, shape) -> str | None:
    """"the giraffe" for a caption that leads with a giraffe ("the giraffe on the left" when it names
    another one), when the detector can find it again (a question or an edit about "it" looks for
    it); None for a region ("the sky") or a building."""
    from agent.perception.places import box_place, place_phrase
    from agent.perception.things import ObjectNotFound, named_words, object_phrase
    from agent.perception.wordnet import first_is_a

    first = next((s for s in segments if s.kind == "object" and s.label), None)
    if first is None:
        return None
    # the caption's word for it ("a brown chicken in the middle"), where the detector's is "bird"; the
    # classifier's ("a panda", where the detector's is "bear" and WordNet's panda is no bear)
    word = next((w for w in reversed(re.findall(r"[a-z]+", first.words.lower()))
                 if w not in first.label.split() and (first_is_a(w, first.label) or w in named_words())),
                first.label)
    try:
        object_phrase(f"the {word}")
    except ObjectNotFound:
        return None
    if sum(s.label == first.label for s in segments) < 2:
        return f"the {word}"
    return f"the {word} {place_phrase(box_place(first.box, (shape[1], shape[0])))}"


def register(manager) -> None:
    """Install the ``describe`` handler on a :class:`agent.dialogue.manager.DialogueManager`."""
    manager.handlers["describe"] = describe_handler


# -- drawing ---------------------------------------------------------------------------------------------


def _hex_rgb(color: str) -> tuple[int, int, int]:
    c = color.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def draw(pixels: np.ndarray, boxes: list, colors: list[str], traces: list | None = None) -> np.ndarray:
    """An 8-bit RGB copy of the image with each box and its piece of trace drawn in its colour.

    ``traces`` holds, per box, normalised points ``[[x, y], ...]`` (or None to draw no trace).
    """
    import cv2

    out = to_rgb8(pixels).copy()
    h, w = out.shape[:2]
    thick = max(1, round(max(h, w) / 300))
    for i, (box, col) in enumerate(zip(boxes, colors)):
        rgb = _hex_rgb(col)
        if box is not None:
            cv2.rectangle(out, (int(box[0]), int(box[1])), (int(box[2]) - 1, int(box[3]) - 1), rgb, thick)
        pts = traces[i] if traces and i < len(traces) else None
        if pts:
            poly = np.array([[x * (w - 1), y * (h - 1)] for x, y in pts], np.int32).reshape(-1, 1, 2)
            cv2.polylines(out, [poly], False, rgb, thick + 1, cv2.LINE_AA)
    return out
