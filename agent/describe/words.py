"""The words of trace captions and image descriptions, from grounded pieces of a trace.

:func:`compose` turns the segments of a trace (:mod:`agent.describe.traces`), grounded to named objects
(:mod:`agent.perception.naming`) or to regions, into one sentence each, in trace order, in the style
of the Localized Narratives people wrote: the first says where ("In this picture I can see a grey
cat on the left"), the next ones say where from the one before ("To its right there is a white
cup"), regions are what one can also see ("I can also see the grass at the bottom"). A trace that goes back and forth over things already named is summarised: each thing
is said once, where the trace first dwelt on it. A region with no object is said as a region with
its place ("the grass at the bottom").

:func:`describe_scene` is what ``describe`` says without a trace: the main subject first, then up
to four other things with where they are, as sentences.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from agent.perception.animals import HERD_SHARE
from agent.perception.colour_terms import colour_term, white_balance_gains
from agent.perception.models import Detection, color_name
from agent.perception.places import place, place_phrase
from agent.perception.region_evidence import fills_the_picture, sky_shaped

# Display colours for phrases and their trace pieces (distinct on photos; cycled).
PALETTE = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45",
           "#9a6324", "#469990")


@dataclass
class Segment:
    """One clause of a caption and the part of the trace (or image) it talks about.

    ``words`` is the clause as it appears in the caption text, ``box`` the grounded box in pixels
    ``(x1, y1, x2, y2)``, ``t0``/``t1`` the times of its piece of the trace (seconds), ``color`` the
    display colour, ``label`` what it was grounded to ("cat", or a region name like "sky"),
    ``kind`` "object" or "region", ``points`` its piece of the trace, normalised ``[[x, y], ...]``.
    """

    words: str
    box: tuple[int, int, int, int]
    t0: float
    t1: float
    color: str
    label: str = ""
    kind: str = "object"
    points: list[list[float]] = field(default_factory=list)

    def as_json(self) -> dict:
        return {"words": self.words, "box": list(self.box), "t0": self.t0, "t1": self.t1,
                "color": self.color, "label": self.label, "kind": self.kind, "points": self.points}


@dataclass
class Caption:
    """A controlled caption: ``text`` is the clauses of ``segments`` joined by ``sep`` ("; " for a
    trace, ". " for the sentences of a description) and ended by ``end``, after ``lead`` (a sentence
    about the whole picture that no segment carries: "This is a black and white picture. ")."""

    text: str
    segments: list[Segment] = field(default_factory=list)
    sep: str = "; "
    end: str = "."
    lead: str = ""

    def as_json(self) -> dict:
        return {"text": self.text, "segments": [s.as_json() for s in self.segments]}

    def pieces(self) -> list[dict]:
        """The text as ``[{"text", "color"}]`` pieces whose concatenation is ``text``."""
        out: list[dict] = [{"text": self.lead, "color": None}] if self.lead and self.segments else []
        for i, s in enumerate(self.segments):
            if i:
                out.append({"text": self.sep, "color": None})
            out.append({"text": s.words, "color": s.color})
        if self.segments:
            out.append({"text": self.end, "color": None})
        else:
            out.append({"text": self.text, "color": None})
        return out



def position_words(cx: float, cy: float) -> str:
    """Where a normalised point is: "top left", "top", "right", "centre", "bottom right", ...
    (:func:`agent.perception.places.place`, the table every answer uses)."""
    return place(cx, cy)


def where_clause(pos: str) -> str:
    phrase = place_phrase(pos)
    return phrase[0].upper() + phrase[1:]


def _object_color(rgb: np.ndarray, box) -> str:
    # the inner half of the box: the object's own colour, not the background around it
    x1, y1, x2, y2 = box
    dx, dy = (x2 - x1) // 4, (y2 - y1) // 4
    inner = (x1 + dx, y1 + dy, max(x1 + dx + 1, x2 - dx), max(y1 + dy + 1, y2 - dy))
    return color_name(rgb, inner)


SKY_SHARE = 0.5  # an area at least this share of the photo's sky mask (editor.sky) is "the sky"
SKY_COLOURS = ("skyblue", "blue", "white", "grey")
GREENERY_SHARE = 0.5  # an area at least this share greenery (editor.greenery) is plants
REGION_SIDE = 1024  # describe_regions reads a photo's thirds on a copy this size on its long side


def describe_region(rgb: np.ndarray, box, sky: np.ndarray | None = None,
                    greenery: np.ndarray | None = None) -> tuple[str, str]:
    """A name for an area with no detected object: ``(noun phrase, short label)``.

    Sky: smooth and blue, white or grey in the upper part of the image, going up to the top edge
    and not down to the bottom one (:func:`agent.perception.region_evidence.sky_shaped`); grass: green in the lower
    part; ground: brown, beige or grey in the lower part, not a texture that fills the picture
    (:func:`agent.perception.region_evidence.fills_the_picture`), grained and going on down to the bottom
    (:func:`_ground_like`); otherwise "a <colour> area", with the basic colour term of its pixels.
    ``sky``, the photo's sky mask (:func:`editor.sky.sky_mask`) when the caller has it, also makes
    an area of a sky's colour above the bottom third "the sky" when it is :data:`SKY_SHARE` sky (a
    sky with clouds or a tower in it; a dark lattice tower against the sky is not). ``greenery``, the
    photo's greenery mask (:func:`editor.greenery.greenery_mask`) when the caller has it, makes an
    area that is :data:`GREENERY_SHARE` plants and not the grass "green plants" ("a green area" and,
    for a dark forest at the bottom, "the ground" were said).
    """
    h, w = rgb.shape[:2]
    x1, y1, x2, y2 = box
    x2, y2 = max(x2, x1 + 1), max(y2, y1 + 1)
    colour = color_name(rgb, (x1, y1, x2, y2))
    region = rgb[y1:y2, x1:x2].astype(np.float32)
    texture = float(region.mean(axis=2).std()) if region.size else 0.0
    cy = (y1 + y2) / 2 / h
    # low in the picture, or from just above its middle when the same stuff goes on below it
    # down to the bottom edge (ground seen up to a high horizon)
    low = cy > 0.6 or (cy > 0.45 and _goes_on_below(rgb, (x1, y1, x2, y2)))
    # the sky only where it lies as the sky does, up to the top edge with something else below
    # it: planks that fill a photo were "the sky" above their middle, the sea under a sky too
    if (cy < 0.45 and colour in ("skyblue", "blue", "white", "grey") and texture < 25
            and sky_shaped(rgb, (x1, y1, x2, y2))):
        return "the sky", "sky"
    word = colour_term(rgb[y1:y2, x1:x2].reshape(-1, 3), white_balance_gains(rgb))
    # a sky's colour by either name: a dusk sky is "black" to the reference colours, "blue" as a term
    if (sky is not None and cy < 2 / 3 and (colour in SKY_COLOURS or word in SKY_COLOURS)
            and float(sky[y1:y2, x1:x2].mean()) >= SKY_SHARE):
        return "the sky", "sky"
    if (cy > 0.55 or low) and colour == "green":
        return "the grass", "grass"
    if greenery is not None and float(greenery[y1:y2, x1:x2].mean()) >= GREENERY_SHARE:
        return "green plants", "plants"
    # not a texture that goes on alike to every edge (planks, a close-up): ground has a horizon
    if (low and colour in ("brown", "beige", "grey") and not fills_the_picture(rgb, (x1, y1, x2, y2))
            and _ground_like(rgb, (x1, y1, x2, y2))):
        return "the ground", "ground"
    # the area's own colour word (``word``): a basic colour term in CIELAB after the photo's white
    # balance (agent.perception.colour_terms), as objects are named; the reference-colour name above
    # only decides sky, grass and ground
    return f"{article(word)} {word} area", f"{word} area"


# Fine texture (mean absolute difference from a blur of 1.5 pixels, grey levels, at most 256
# pixels a side) that ground shows and a blurred background does not: on hand-labelled boxes the
# bokeh behind the mate-backgrounds close-ups (LadyBird, TwoWings, Garden) measured 0.29-0.70 and
# the ground, floors and sand of the photos and the development set 1.55-10.5.
GROUND_GRAIN = 1.2


def _ground_like(rgb: np.ndarray, box) -> bool:
    """Whether a low brown, beige or grey area is shown as ground is: with a grain, and going on
    alike down to the bottom of the picture. A blurred background low in a close-up is smooth, and
    a band with something else below it (Storm's guardrail over the road) is not the ground."""
    import cv2

    x1, y1, x2, y2 = box
    grey = cv2.cvtColor(np.ascontiguousarray(rgb[y1:y2, x1:x2]), cv2.COLOR_RGB2GRAY).astype(np.float32)
    f = min(1.0, 256 / max(grey.shape))
    grey = cv2.resize(grey, (max(2, round(grey.shape[1] * f)), max(2, round(grey.shape[0] * f))),
                      interpolation=cv2.INTER_AREA)
    grain = float(np.abs(grey - cv2.GaussianBlur(grey, (0, 0), 1.5)).mean())
    return grain >= GROUND_GRAIN and _goes_on_below(rgb, box)


def _goes_on_below(rgb: np.ndarray, box, far: float = 12.0) -> bool:
    """Whether what is under ``box`` down to the bottom of the picture has the box's colour
    (mean Lab within ``far``)."""
    import cv2

    x1, y1, x2, y2 = box
    below = rgb[y2:, x1:x2]
    if below.shape[0] < 4 or below.size == 0:
        return below.shape[0] < 4
    here = cv2.cvtColor(np.ascontiguousarray(rgb[y1:y2, x1:x2]), cv2.COLOR_RGB2LAB).reshape(-1, 3)
    there = cv2.cvtColor(np.ascontiguousarray(below), cv2.COLOR_RGB2LAB).reshape(-1, 3)
    return float(np.linalg.norm(np.median(here, 0).astype(float) - np.median(there, 0))) <= far


def article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def relation_words(prev_box, box, w: int, h: int) -> str:
    pcx, pcy = (prev_box[0] + prev_box[2]) / 2 / w, (prev_box[1] + prev_box[3]) / 2 / h
    cx, cy = (box[0] + box[2]) / 2 / w, (box[1] + box[3]) / 2 / h
    dx, dy = cx - pcx, cy - pcy
    if abs(dx) < 0.08 and abs(dy) < 0.08:
        return "next to it"
    if abs(dx) >= abs(dy):
        return "to its right" if dx > 0 else "to its left"
    return "below it" if dy > 0 else "above it"


def where_words(pos: str) -> str:
    """"on the left", "at the top right", "in the middle": a position as words inside a sentence."""
    return place_phrase(pos)


def region_phrase(noun: str, box, w: int, h: int) -> str:
    """A region with its place: "the grass at the bottom", "a grey area on the left"."""
    cx, cy = (box[0] + box[2]) / 2 / w, (box[1] + box[3]) / 2 / h
    return f"{noun} {where_words(position_words(cx, cy))}"


def _place(box, w: int, h: int) -> str:
    return position_words((box[0] + box[2]) / 2 / w, (box[1] + box[3]) / 2 / h)


def _a(phrase: str) -> str:
    return phrase if phrase.startswith(("a ", "an ", "the ")) else f"{article(phrase)} {phrase}"


_ONE_OF_A_KIND = {"sky", "grass", "ground"}


def _mostly_inside(a, b) -> bool:
    """Most of box a lies in box b."""
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    return ix * iy >= 0.5 * max(1, (a[2] - a[0]) * (a[3] - a[1]))


def _same_region(a: dict, b: dict) -> bool:
    """Two region pieces are one region when they have one name and touch or overlap ("the sky"
    twice is one sky; two grey areas at opposite corners are two areas)."""
    if a["label"] != b["label"]:
        return False
    x, y = a["box"], b["box"]
    gx = max(0, max(x[0], y[0]) - min(x[2], y[2]))
    gy = max(0, max(x[1], y[1]) - min(x[3], y[3]))
    return gx <= 0.1 * max(x[2] - x[0], y[2] - y[0]) and gy <= 0.1 * max(x[3] - x[1], y[3] - y[1])


def _detected_as(noun: str, box, dets: list[Detection], skip: int = -1) -> int | None:
    """The detection a piece the classifier named ``noun`` is, when the detector itself gave that
    name (or a label the word agrees with: "coffee" for a cup) to a box that overlaps the piece's
    ``box``. The classifier sees a crop around what it names: a second look at the saucer found a
    "vase", and the dining table beside a cup, which the classifier called "coffee" because the cup
    is in their crops; that cup is said once, not three times. Two things the detector itself named
    alike (two cats side by side) are not joined: only a name given by the classifier is."""
    from agent.perception.vocabulary import agrees

    for j, d in enumerate(dets):
        if j == skip or not agrees(noun, d.label):
            continue
        b = d.box
        if min(box[2], b[2]) > max(box[0], b[0]) and min(box[3], b[3]) > max(box[1], b[1]):
            return j
    return None


def sky_at_size(rgb: np.ndarray) -> np.ndarray:
    """The photo's sky mask (:func:`editor.sky.sky_mask`, found on a :data:`REGION_SIDE` copy) at the
    photo's size, as describe_regions reads it."""
    import cv2

    from agent.perception.colour_terms import fit_side
    from editor.sky import sky_mask

    small = sky_mask(fit_side(rgb, REGION_SIDE))
    return cv2.resize(small.astype(np.float32), (rgb.shape[1], rgb.shape[0]), interpolation=cv2.INTER_LINEAR) >= 0.5


def compose(rgb: np.ndarray, segs, dets: list[Detection], names, things=None) -> Caption:
    """One clause per thing the trace dwells on, in the order it first dwells on it.

    ``segs`` are :class:`agent.describe.traces.TraceSegment` (``region`` indexes ``dets``, negative for the
    background), ``names`` the :class:`agent.perception.naming.Named` of each detection, ``things`` the names
    of background segments the classifier recognised (by segment index).
    """
    from agent.perception.vocabulary import agrees

    h, w = rgb.shape[:2]
    things = things or {}
    pieces = []
    sky = None  # the photo's sky mask, found once a dwell is on no object
    for k, s in enumerate(segs):
        if k in things:
            x1, y1, x2, y2 = s.box
            box = (int(x1 * w), int(y1 * h), max(int(x1 * w) + 1, int(np.ceil(x2 * w))),
                   max(int(y1 * h) + 1, int(np.ceil(y2 * h))))
            n = things[k]
            j = _detected_as(n.noun, box, dets)
            if j is None:
                pieces.append({"key": ("thing", n.noun), "box": box, "noun": n.phrase, "label": n.noun,
                               "kind": "object", "points": s.points})
                continue
        else:
            j = s.region
            if j >= 0 and not agrees(names[j].noun, dets[j].label):  # renamed by the classifier
                j = _detected_as(names[j].noun, dets[j].box, dets, skip=j)
                j = s.region if j is None else j
        if j >= 0:
            n = names[j]
            box = tuple(int(v) for v in dets[j].box)
            pieces.append({"key": ("object", j), "box": box, "noun": n.phrase, "label": n.noun,
                           "kind": "object", "points": s.points})
        else:
            x1, y1, x2, y2 = s.box
            box = (int(x1 * w), int(y1 * h), max(int(x1 * w) + 1, int(np.ceil(x2 * w))),
                   max(int(y1 * h) + 1, int(np.ceil(y2 * h))))
            if sky is None:
                sky = sky_at_size(rgb)
            noun, label = describe_region(rgb, box, sky)
            pieces.append({"key": ("region", label), "box": box, "noun": noun, "label": label,
                           "kind": "region", "points": s.points})
    # Each thing once, where it was first looked at: a trace that lingers, or goes back and forth
    # between a cup and a cat, is about the cup and the cat, not "back to the cup" again and again.
    said: list[dict] = []
    for p in pieces:
        if p["key"][0] == "thing":  # one word, one place: the same thing looked at again
            first = next((g for g in said if g["key"] == p["key"] and _same_region(g, p)), None)
            if first is None and p["label"] == "object":
                # a piece of a thing named already, looked at again, which alone no model names
                first = next((g for g in said if g["key"][0] == "thing" and _mostly_inside(p["box"], g["box"])), None)
        elif p["kind"] == "object":
            first = next((g for g in said if g["key"] == p["key"]), None)
        else:
            # a named region (the sky, the grass) is one region wherever the trace comes back to
            # it; "a grey area" twice may be two areas, unless they touch or would be said alike
            # ("a black area at the top left" twice: the night sky and a tower against it)
            first = next((g for g in said if g["kind"] == "region" and g["label"] == p["label"]
                          and (p["label"] in _ONE_OF_A_KIND or _same_region(g, p)
                               or _place(g["box"], w, h) == _place(p["box"], w, h))), None)
        if first is None:
            said.append(dict(p))
        elif p["kind"] == "region":
            b, c = first["box"], p["box"]  # the same region still: it grows with the trace
            first["box"] = (min(b[0], c[0]), min(b[1], c[1]), max(b[2], c[2]), max(b[3], c[3]))
    segments = []
    for i, g in enumerate(said):
        box = g["box"]
        cx, cy = (box[0] + box[2]) / 2 / w, (box[1] + box[3]) / 2 / h
        # Sentences as people write them in Localized Narratives ("In this picture I can see a
        # dog sitting on a porch. Behind it there is a red bicycle."): the first thing with its
        # place in the picture, each next one where it is from the one before, regions as what
        # one can also see
        if g["kind"] == "region":
            phrase = region_phrase(g["noun"], box, w, h)
            words = f"In this picture I can see {phrase}" if i == 0 else f"I can also see {phrase}"
        elif i == 0:
            words = f"In this picture I can see {_a(g['noun'])} {where_words(position_words(cx, cy))}"
        else:
            rel = relation_words(said[i - 1]['box'], box, w, h)
            words = f"{rel[0].upper()}{rel[1:]} there is {_a(g['noun'])}"
        pts = g["points"]
        segments.append(Segment(
            words=words, box=box, t0=float(pts[0, 2]), t1=float(pts[-1, 2]),
            color=PALETTE[i % len(PALETTE)], label=g["label"], kind=g["kind"],
            points=[[round(float(x), 4), round(float(y), 4)] for x, y, _ in pts]))
    if not segments:
        return Caption("I could not follow that trace.", [])
    return Caption(". ".join(s.words for s in segments) + ".", segments, sep=". ")


def _holds(a, b) -> bool:
    """Box a holds most of a smaller box b."""
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    area_b = max(1, (b[2] - b[0]) * (b[3] - b[1]))
    return ix * iy >= 0.7 * area_b and (a[2] - a[0]) * (a[3] - a[1]) > 1.5 * area_b


def _salience(d: Detection, n, w: int, h: int, dets=()) -> float:
    """How much a thing is the photo's subject: its share of the picture, nearer the middle
    better, named things before "objects", and a box that holds another thing (a table under a
    cup) after what it holds."""
    b = d.box
    holder = 0.25 if any(o is not d and _holds(b, o.box) for o in dets) else 1.0
    area = (b[2] - b[0]) * (b[3] - b[1]) / (w * h)
    cx, cy = (b[0] + b[2]) / 2 / w, (b[1] + b[3]) / 2 / h
    centred = 1 - 0.6 * min(1.0, 2 * max(abs(cx - 0.5), abs(cy - 0.5)))
    return (min(area, 0.6) * centred * holder * (0.3 if n.noun == "object" else 1.0)
            * (0.2 + min(1.0, d.score)))


TINY_OTHER = 0.005  # a thing under this share of the picture, said after the subject: see describe_scene
_NUMBERS = {2: "two", 3: "three", 4: "four"}


def _plural_phrase(phrase: str) -> str:
    """"person in black" -> "people in black", "white cup" -> "white cups"."""
    from agent.perception.vocabulary import plural

    head, sep, rest = phrase.partition(" in ")
    return plural(head) + sep + rest


def _grouped(dets: list[Detection], names, order: list[int], w: int, h: int, *, subject: bool,
             limit: int) -> list[dict]:
    """The things of ``order`` (indices of ``dets``, most salient first) as they are said: a tiny
    thing no model names left out ("a green object at the top left": a far cow against the grass says
    nothing a person would), a tiny named one without its colour (its few pixels cannot tell it from
    what is around it), and those said alike in one place together ("In the middle there are two
    people in black", not "a person in black ... another person in black" there). With ``subject``
    the first is the main subject, said in full and never grouped. At most ``limit`` things are said."""

    def tiny(i: int) -> bool:
        b = dets[i].box
        return (b[2] - b[0]) * (b[3] - b[1]) < TINY_OTHER * w * h

    lead = order[:1] if subject else []
    herd = _herd(dets, names, lead, order)
    order = (lead + [i for i in order[len(lead):] if not (tiny(i) and names[i].noun == "object") and i not in herd]
             )[:limit - (1 if herd else 0)]
    things: list[dict] = []
    for k, i in enumerate(order):
        d, n = dets[i], names[i]
        after = k >= len(lead)
        if after and tiny(i):
            n = dataclasses.replace(n, phrase=n.said or n.noun)
        box = tuple(int(v) for v in d.box)
        where = position_words((box[0] + box[2]) / 2 / w, (box[1] + box[3]) / 2 / h)
        alike = next((t for t in things[len(lead):] if after and t["phrase"] == n.phrase and t["where"] == where), None)
        if alike is None:
            things.append({"phrase": n.phrase, "noun": n.noun, "where": where, "box": box, "n": 1})
        else:
            b = alike["box"]
            alike["box"] = (min(b[0], box[0]), min(b[1], box[1]), max(b[2], box[2]), max(b[3], box[3]))
            alike["n"] += 1
    if herd:
        boxes = [tuple(int(v) for v in dets[i].box) for i in herd]
        things.append({"phrase": names[lead[0]].said or names[lead[0]].noun, "noun": names[lead[0]].noun,
                       "where": "", "n": len(herd), "herd": True,
                       "box": (min(b[0] for b in boxes), min(b[1] for b in boxes),
                               max(b[2] for b in boxes), max(b[3] for b in boxes))})
    return things


def _herd(dets: list[Detection], names, lead: list[int], order: list[int]) -> list[int]:
    """The others said as the subject is and much smaller than it (:data:`agent.perception.animals.HERD_SHARE`
    of its box or less, as the herd's names are given), when there are two or more: "In the background
    there are four more bison", not a cow, a bison and two animals each in its place."""
    if not lead:
        return []
    s = lead[0]
    said = names[s].said or names[s].noun
    area = (dets[s].box[2] - dets[s].box[0]) * (dets[s].box[3] - dets[s].box[1])
    herd = [i for i in order[1:] if (names[i].said or names[i].noun) == said and names[i].noun != "object"
            and (dets[i].box[2] - dets[i].box[0]) * (dets[i].box[3] - dets[i].box[1]) <= HERD_SHARE * area]
    return herd if len(herd) >= 2 else []


def _thing_segments(things: list[dict], *, subject: bool, start: int = 0) -> list[Segment]:
    """One sentence a thing (or a group of alike things): the subject leads ("In this picture I can
    see a grey cat on the left"), the others say where they are ("On the right there is a white cup",
    "there is another cup", "there are two people in black"). ``start``: segments said before them."""
    segments = []
    said: set[str] = set()
    for k, t in enumerate(things):
        if k == 0 and subject:
            words = f"In this picture I can see {_a(t['phrase'])} {where_words(t['where'])}"
        elif t.get("herd"):
            words = (f"In the background there are {_NUMBERS.get(t['n'], 'many')} more "
                     f"{_plural_phrase(t['phrase'])}")
        elif t["n"] > 1:
            words = (f"{where_clause(t['where'])} there are {_NUMBERS.get(t['n'], str(t['n']))}"
                     f"{' more' if t['phrase'] in said else ''} {_plural_phrase(t['phrase'])}")
        elif t["phrase"] in said:
            words = f"{where_clause(t['where'])} there is another {t['phrase']}"
        else:
            words = f"{where_clause(t['where'])} there is {_a(t['phrase'])}"
        said.add(t["phrase"])
        segments.append(Segment(words, t["box"], 0.0, 0.0, PALETTE[(start + k) % len(PALETTE)], t["noun"], "object"))
    return segments


def describe_scene(rgb: np.ndarray, dets: list[Detection], names, *, others: int = 4) -> Caption:
    """Sentences about the photo: the main subject first ("In this picture I can see a grey cat on
    the left."), then up to ``others`` more things with where they are ("On the right there is a white
    cup."), most salient first (:func:`_grouped` says which and how). ``names`` are the
    :class:`agent.perception.naming.Named` of ``dets``."""
    h, w = rgb.shape[:2]
    order = sorted(range(len(dets)), key=lambda i: -_salience(dets[i], names[i], w, h, dets))
    things = _grouped(dets, names, order, w, h, subject=True, limit=others + 1)
    segments = _thing_segments(things, subject=True)
    lead = black_and_white_lead(rgb)
    return Caption(lead + ". ".join(s.words for s in segments) + ".", segments, sep=". ", lead=lead)


def describe_regions(rgb: np.ndarray, thing: str | None = None) -> Caption:
    """Sentences for a photo with no object found: what the classifier is sure the whole photo
    shows (``thing``), then its top, middle and bottom thirds as regions, neighbours with one
    name said once ("In this picture I can see the sky at the top. At the bottom I can see the grass.")."""
    from agent.perception.colour_terms import fit_side
    from editor.greenery import greenery_mask
    from editor.sky import sky_mask

    h, w = rgb.shape[:2]
    # the regions are read on a copy REGION_SIDE pixels on its long side (as bench/describe_human.py
    # measures them): a 12-megapixel photo's thirds took 0.4 s, the same words
    small = fit_side(rgb, REGION_SIDE)
    sh = small.shape[0]
    sky = sky_mask(small)
    greenery = greenery_mask(small, sky=sky)
    bands = []
    for k, where in enumerate(("at the top", "in the middle", "at the bottom")):
        noun, label = describe_region(small, (0, k * sh // 3, small.shape[1], max(k * sh // 3 + 1, (k + 1) * sh // 3)),
                                      sky, greenery)
        box = (0, k * h // 3, w, max(k * h // 3 + 1, (k + 1) * h // 3))
        if bands and bands[-1]["label"] == label:
            b = bands[-1]
            b["box"] = (0, b["box"][1], w, box[3])
            b["where"] = b["where"].split(" and ")[0] + f" and {where.split(' ', 1)[1]}"
            continue
        bands.append({"noun": noun, "label": label, "box": box, "where": where})
    if thing is None and any(b["label"].endswith(" area") for b in bands):
        from agent.perception.landforms import scene_landform

        # "a blue area" in the middle of Machu Picchu: the mountains, the first such area from the top
        # (the whole photo says there are mountains, not where: a river valley under a canyon's cliffs
        # is not "rocks")
        landform = scene_landform(rgb)
        first = next(b for b in bands if b["label"].endswith(" area"))
        if landform and first["box"][1] < 2 * h // 3:
            first["noun"] = first["label"] = landform
    segments = []
    if thing:
        segments.append(Segment(f"In this picture I can see {_a(thing)}", (0, 0, w, h), 0.0, 0.0, PALETTE[0],
                                thing, "object"))
    for b in bands:
        if len(bands) == 1:
            words = (f"The whole picture is {b['label'].removesuffix(' area')}" if b["label"].endswith(" area")
                     else f"{b['noun'][0].upper()}{b['noun'][1:]} fills the picture")
        elif not segments:  # the first thing said leads as people begin ("In this picture I can see ...")
            words = f"In this picture I can see {b['noun']} {b['where']}"
        else:
            words = f"{b['where'][0].upper()}{b['where'][1:]} I can see {b['noun']}"
        segments.append(Segment(words, b["box"], 0.0, 0.0, PALETTE[len(segments) % len(PALETTE)],
                                b["label"], "region"))
    lead = black_and_white_lead(rgb)
    return Caption(lead + ". ".join(s.words for s in segments) + ".", segments, sep=". ", lead=lead)


SMALL_SUBJECT = 0.03  # things this small a share of the picture, at most, are not what it shows
SMALL_SAID = 3  # how many of them are said after the scene
SMALL_SURE = 0.5  # ... those the detector is this sure of


def is_small_scene(dets: list[Detection], w: int, h: int) -> bool:
    """Whether every thing found is small (:data:`SMALL_SUBJECT` of the picture at most): a tower,
    a mountain or a room with a few people or a bottle in it, whose scene is what it shows."""
    return all((d.box[2] - d.box[0]) * (d.box[3] - d.box[1]) <= SMALL_SUBJECT * w * h for d in dets)


def describe_small_things(rgb: np.ndarray, dets: list[Detection], names, thing: str | None = None) -> Caption:
    """Sentences for a photo whose things are all small (:func:`is_small_scene`): the scene first,
    as :func:`describe_regions` says it (what the classifier is sure the photo shows, then its top,
    middle and bottom), then up to :data:`SMALL_SAID` of the things the detector is sure of, most
    salient first, with where they are ("At the bottom there is a person in black"), said as
    :func:`describe_scene` says the things after its subject."""
    h, w = rgb.shape[:2]
    scene = describe_regions(rgb, thing)
    order = sorted((i for i in range(len(dets)) if dets[i].score >= SMALL_SURE),
                   key=lambda i: -_salience(dets[i], names[i], w, h, dets))
    things = _grouped(dets, names, order, w, h, subject=False, limit=SMALL_SAID)
    segments = [*scene.segments, *_thing_segments(things, subject=False, start=len(scene.segments))]
    return Caption(scene.lead + ". ".join(s.words for s in segments) + ".", segments, sep=". ", lead=scene.lead)


def black_and_white_lead(rgb: np.ndarray) -> str:
    """"This is a black and white picture. " for a photo with no colour (every pixel's channels
    within a few levels of each other), as people begin such a description; else ""."""
    small = rgb[:: max(1, rgb.shape[0] // 200), :: max(1, rgb.shape[1] // 200), :3].astype(np.int16)
    spread = small.max(axis=2) - small.min(axis=2)
    return "This is a black and white picture. " if float(np.percentile(spread, 99)) <= 12 else ""

