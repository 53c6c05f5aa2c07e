"""Text removed from a photo: "remove the watermark", "the text at the bottom", "get rid of the date
stamp", 'remove "OKC"'. The lines come from the OCR model (:func:`agent.perception.models.text_lines`);
:func:`find_text` picks those the words mean, :func:`text_mask` is their hole, :func:`text_left`
reads the place again after the fill. Only lines read surely (:data:`agent.perception.models.SURE_TEXT`)
are removed unasked. Used by :mod:`agent.edits.removal` and :func:`agent.edits.objects.removal_hole`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import cv2
import numpy as np

from agent.language.scope import removal_head
from agent.perception.models import SURE_TEXT, text_lines, to_rgb8
from agent.perception.places import box_place, place_phrase
from agent.perception.things import ObjectNotFound

__all__ = ["JOIN_GAP", "TEXT_END", "TextLine", "find_text", "text_left", "text_mask"]

Box = tuple[int, int, int, int]

# An OCR line under SURE_TEXT (agent.perception.models) is shown and asked about, never removed unasked.
# "the text “OKC”", 'the word "sale"': which line, by what it says
_QUOTED = re.compile(r"[“\"]([^”\"]{1,80})[”\"]|\bwords? ([a-z0-9]\S*)$")
# "the date stamp" takes the lines that are a date or a time (4 digits at least, with ' / . : - and
# spaces); "the watermark", "the copyright", "the signature" the lines that look like a mark ((c),
# ©, a web or mail address, "photo by"), when some do, else every line (a watermark can be a name)
_DATE_WORDS = re.compile(r"\b(?:date|time) ?stamps?\b|\bdates?\b")
_DATE_LINE = re.compile(r"^[\d\s'’`/.:,\-]+$")
_MARK_WORDS = re.compile(r"\b(?:watermarks?|copyright|signatures?|credits?)\b")
_MARK_LINE = re.compile(r"©|\(c\)|\bwww\b|https?|\.(?:com|net|org|co|io|de|fr|uk)\b|@|copyright|"
                        r"\bphoto(?:graphy|s)? by\b|\bstudio\b", re.IGNORECASE)
_PLACE_WORDS = re.compile(r"\b(top|upper|bottom|lower|left|right|middle|centre|center|corner)\b")


@dataclass(frozen=True)
class TextLine:
    """One line the OCR model read: its text, score and quad (4 x 2, x y) in the picture."""
    text: str
    score: float
    quad: np.ndarray

    @property
    def box(self) -> Box:
        (x1, y1), (x2, y2) = np.floor(self.quad.min(0)), np.ceil(self.quad.max(0))
        return int(x1), int(y1), int(x2), int(y2)


def _in_place(line: TextLine, place: set[str], w: int, h: int) -> bool:
    """Whether a line's centre is where ``place`` says ("top", "bottom right", "corner", "middle")."""
    cx, cy = float(line.quad[:, 0].mean()) / w, float(line.quad[:, 1].mean()) / h
    checks = {"top": cy < 0.5, "upper": cy < 0.5, "bottom": cy >= 0.5, "lower": cy >= 0.5, "left": cx < 0.5,
              "right": cx >= 0.5, "middle": 0.25 <= cx <= 0.75 and 0.25 <= cy <= 0.75,
              "corner": not (1 / 3 <= cx <= 2 / 3 or 1 / 3 <= cy <= 2 / 3)}
    checks["centre"] = checks["center"] = checks["middle"]
    return all(checks[p] for p in place)


def _norm(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.lower())


def _local_contrast(pixels: np.ndarray) -> np.ndarray:
    """The picture with its lightness's local contrast raised (CLAHE, clip 3, 8 x 8 tiles)."""
    lab = cv2.cvtColor(to_rgb8(pixels), cv2.COLOR_RGB2LAB)
    lab[..., 0] = cv2.createCLAHE(clipLimit=3.0, tileGridSize=(8, 8)).apply(np.ascontiguousarray(lab[..., 0]))
    return cv2.cvtColor(lab, cv2.COLOR_LAB2RGB)


def find_text(pixels: np.ndarray, words: str = "the text") -> tuple[list[TextLine], list[TextLine]]:
    """The lines of text ``words`` mean (:func:`agent.perception.models.text_lines`): those where
    the words place them ("the text at the bottom", "the watermark in the corner") and those that
    say what is quoted ("the text “OKC”"). Returns the lines read surely (:data:`SURE_TEXT`) and
    the unsure ones, apart: a line quoted by the words counts as sure. Raises
    :class:`ObjectNotFound` when no line is read, or none where the words place it."""
    h, w = pixels.shape[:2]
    lines = [TextLine(t, s, q) for t, s, q in text_lines(pixels)]
    if not any(ln.score >= SURE_TEXT for ln in lines):
        # a second look, with the local contrast raised (CLAHE on L*): a dark caption on dark leaves
        # and an orange date stamp on a bright photo were read so, surely, where the first look read
        # nothing or "221" at 0.55; on 43 photos without text it read nothing surely
        again = [TextLine(t, s, q) for t, s, q in text_lines(_local_contrast(pixels))]
        if any(ln.score >= SURE_TEXT for ln in again):
            lines = again
    if not lines:
        raise ObjectNotFound("I couldn't find any text I can read in the picture (a logo or watermark "
                             "is found only when it is lettering)")
    head = removal_head(words.lower())
    _, _, where = words.lower().partition(head)
    place = set(_PLACE_WORDS.findall(where))
    quoted = _QUOTED.search(words.lower())
    chosen = [ln for ln in lines if _in_place(ln, place, w, h)]
    if quoted:
        said = _norm(quoted.group(1) or quoted.group(2))
        chosen = [ln for ln in chosen if said and (said in _norm(ln.text) or _norm(ln.text) in said)]
        return chosen, []

    def read() -> str:
        return "; ".join(f"“{ln.text}” {place_phrase(box_place(ln.box, (w, h)))}" for ln in lines[:3])

    if not chosen:
        raise ObjectNotFound(f"I can read no text {where.strip()}: the text I can read is {read()}")
    if _DATE_WORDS.search(head):  # "the date stamp": a date or a time, not the shop sign beside it
        chosen = [ln for ln in chosen if _DATE_LINE.match(ln.text) and len(re.sub(r"\D", "", ln.text)) >= 4]
        if not chosen:
            raise ObjectNotFound(f"I can read no date{' ' + where.strip() if where.strip() else ''}: the text I "
                                 f"can read is {read()}")
    elif _MARK_WORDS.search(head):  # "the watermark": the lines that look like one, when some do
        chosen = [ln for ln in chosen if _MARK_LINE.search(ln.text)] or chosen
    return [ln for ln in chosen if ln.score >= SURE_TEXT], [ln for ln in chosen if ln.score < SURE_TEXT]


def text_left(pixels: np.ndarray, lines: list[TextLine]) -> list[TextLine]:
    """The lines the OCR model still reads surely where ``lines`` were (after their removal): it
    reads the box around them with a margin of half a line's height."""
    h, w = pixels.shape[:2]
    x1, y1 = min(ln.box[0] for ln in lines), min(ln.box[1] for ln in lines)
    x2, y2 = max(ln.box[2] for ln in lines), max(ln.box[3] for ln in lines)
    m = max(ln.box[3] - ln.box[1] for ln in lines) // 2 + 4
    x1, y1, x2, y2 = max(0, x1 - m), max(0, y1 - m), min(w, x2 + m), min(h, y2 + m)
    return [TextLine(t, s, q + (x1, y1)) for t, s, q in text_lines(pixels[y1:y2, x1:x2]) if s >= SURE_TEXT]


# The OCR model's box of a line can end inside its last letter, and it can read one line as two
# pieces with a word it could not read between them ("(c) Photo by", "2018" of "(c) Photo by Lee
# 2018", bench/remove_text.py): a line's quad is lengthened by this share of its height at both ends,
# and two pieces on one baseline, of like height, less than JOIN_GAP heights apart are one line.
TEXT_END = 0.5
JOIN_GAP = 3.0


def _joined(lines: list[TextLine]) -> list[np.ndarray]:
    """The quads of ``lines`` with the pieces of one line joined (:data:`JOIN_GAP`)."""
    quads = [ln.quad.astype(np.float32) for ln in lines]
    merged = True
    while merged and len(quads) > 1:
        merged = False
        for i in range(len(quads)):
            for j in range(i + 1, len(quads)):
                a, b = quads[i], quads[j]
                ha, hb = float(np.linalg.norm(a[3] - a[0])), float(np.linalg.norm(b[3] - b[0]))
                hi = max(ha, hb)
                same_row = abs(float(a[:, 1].mean() - b[:, 1].mean())) < 0.5 * hi and min(ha, hb) > hi / 1.5
                gap = max(b[:, 0].min() - a[:, 0].max(), a[:, 0].min() - b[:, 0].max())
                if same_row and gap < JOIN_GAP * hi:
                    left, right = (a, b) if a[:, 0].mean() < b[:, 0].mean() else (b, a)
                    quads[i] = np.array([left[0], right[1], right[2], left[3]], np.float32)
                    del quads[j]
                    merged = True
                    break
            if merged:
                break
    return quads


def text_mask(pixels: np.ndarray, lines: list[TextLine]) -> np.ndarray:
    """The mask of ``lines`` (those :func:`find_text` read surely): each
    line's quad (pieces of one line joined, its ends lengthened: :data:`TEXT_END`) filled and grown
    by a quarter of its height plus 2 pixels (the letters' anti-aliased edges and shadow). Raises
    :class:`ObjectNotFound` when there is none."""
    h, w = pixels.shape[:2]
    hole = np.zeros((h, w), np.uint8)
    for quad in _joined(lines):
        side = float(np.linalg.norm(quad[3] - quad[0]))
        along = quad[1] - quad[0]
        along = along / max(1e-6, float(np.linalg.norm(along))) * TEXT_END * side
        quad = quad + np.array([-along, along, along, -along], np.float32)  # a last letter the OCR box cut
        r = int(0.25 * side) + 2
        x1, y1 = np.floor(quad.min(0)).astype(int) - r
        x2, y2 = np.ceil(quad.max(0)).astype(int) + r + 1
        x1, y1, x2, y2 = max(0, x1), max(0, y1), min(w, x2), min(h, y2)
        if x2 <= x1 or y2 <= y1:
            continue
        one = np.zeros((y2 - y1, x2 - x1), np.uint8)
        cv2.fillPoly(one, [np.round(quad - (x1, y1)).astype(np.int32)], 1)
        hole[y1:y2, x1:x2] |= cv2.dilate(one, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
    if not hole.any():
        raise ObjectNotFound("I couldn't find any text I can read in the picture (a logo or watermark "
                             "is found only when it is lettering)")
    return hole > 0
