"""What a photo holds, as the command model and the library need it: objects with their colours, ImageNet
labels, main colours, text and CAISE-style concepts, cached by pixel hash (:func:`perceive`)."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from agent.perception.models import (
    COLOR_NAMES_RGB,
    classify,
    detect_objects,
    read_text,
    ref_lab,
    to_rgb8,
)
from agent.perception.vocabulary import listed, plural, with_article
from editor.models import ModelMissingError

# Bump when what perceive() computes changes; older cache rows are ignored. 2: an object's colour
# from its own pixels (agent.perception.naming.object_colour), a person's from their clothes or none.
PERCEPTION_VERSION = 2


# The colour words of CAISE's concepts: "gray" as CAISE spells it, "light blue" for skyblue.
CONCEPT_COLOR = {"grey": "gray", "skyblue": "light blue"}


@dataclass(frozen=True)
class ObjectInfo:
    """A detected object with the name of its colour: the main colour of its own pixels (a mask
    inside the box), for a person the colour of their clothes, or None when too little of them
    shows (never their skin)."""

    label: str
    score: float
    box: tuple[int, int, int, int]
    color: str | None

    @property
    def concept(self) -> str:
        # People are not named by a colour: "black person" would be wrong or worse, and the
        # colour kept for a person is their clothes' ("person in orange" is for captions).
        if self.label == "person" or self.color is None:
            return self.label
        return f"{CONCEPT_COLOR.get(self.color, self.color)} {self.label}"


@dataclass(frozen=True)
class Perception:
    """What :func:`perceive` saw in one image.

    ``labels`` are ImageNet classes with probabilities; ``text`` the OCR lines (``None`` when OCR
    was not run, ``[]`` when it found nothing); ``colors`` the image's main colour names, most
    covered first; ``concepts`` CAISE-style "attribute object" phrases.
    """

    hash: str
    width: int
    height: int
    objects: list[ObjectInfo]
    labels: list[tuple[str, float]]
    colors: list[str]
    concepts: list[str]
    text: list[str] | None = None

    def to_json(self) -> dict:
        return {
            "hash": self.hash, "width": self.width, "height": self.height,
            "objects": [{"label": o.label, "score": round(o.score, 4), "box": list(o.box),
                         "color": o.color} for o in self.objects],
            "labels": [[name, round(p, 4)] for name, p in self.labels],
            "colors": self.colors, "concepts": self.concepts, "text": self.text,
        }

    @classmethod
    def from_json(cls, d: dict) -> Perception:
        return cls(
            hash=d["hash"], width=int(d["width"]), height=int(d["height"]),
            objects=[ObjectInfo(o["label"], float(o["score"]), tuple(o["box"]), o["color"])
                     for o in d["objects"]],
            labels=[(name, float(p)) for name, p in d["labels"]],
            colors=list(d["colors"]), concepts=list(d["concepts"]),
            text=None if d.get("text") is None else list(d["text"]),
        )

    def description(self) -> str:
        """One English paragraph of what is in the image, for full-text search and the embedding.

        >>> p = Perception("h", 4, 3, [ObjectInfo("cat", 0.9, (0, 0, 4, 3), "grey")],
        ...                [("Egyptian cat", 0.8), ("tabby, tabby cat", 0.1)], ["brown", "grey"],
        ...                ["gray cat"])
        >>> p.description()
        'A photo of a gray cat. It looks like an Egyptian cat and a tabby. Mostly brown and gray.'
        """
        parts = []
        if self.objects:
            counts: dict[str, int] = {}
            for o in self.objects:
                counts[o.concept] = counts.get(o.concept, 0) + 1
            phrases = [c if n == 1 else f"{n} {plural(c)}" for c, n in counts.items()]
            parts.append("A photo of " + listed([p if p[0].isdigit() else with_article(p) for p in phrases]) + ".")
        else:
            parts.append("A photo.")
        names = []
        for i, (name, p) in enumerate(self.labels):
            if i > 0 and p < 0.1:  # the runner-up classes of an unsure classifier are noise
                break
            short = name.split(",")[0].strip()  # ImageNet's first synonym is its usual name
            if short.lower() not in (n.lower() for n in names):
                names.append(short)
        if names:
            parts.append("It looks like " + listed([with_article(n) for n in names[:3]]) + ".")
        if self.colors:
            parts.append("Mostly " + listed([CONCEPT_COLOR.get(c, c) for c in self.colors], "and") + ".")
        if self.text:
            parts.append("Text: " + " ".join(self.text) + ".")
        return " ".join(parts)




def _main_colors(rgb: np.ndarray, *, at_least: float = 0.2) -> list[str]:
    """Colour names that cover at least ``at_least`` of the image, most covered first."""
    small = cv2.resize(rgb, (64, 64), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_RGB2LAB).reshape(-1, 3).astype(np.float32)
    ref = ref_lab()
    d = ((lab[:, None, :] - ref[None, :, :]) ** 2).sum(axis=2)
    share = np.bincount(np.argmin(d, axis=1), minlength=len(ref)) / len(lab)
    order = np.argsort(-share)
    names = list(COLOR_NAMES_RGB)
    picked = [names[i] for i in order if share[i] >= at_least]
    return picked or [names[int(order[0])]]


def _concepts(objects: list[ObjectInfo], labels: list[tuple[str, float]], colors: list[str]) -> list[str]:
    concepts: list[str] = []
    for o in objects:
        if o.concept not in concepts:
            concepts.append(o.concept)
    # A confident ImageNet class is a concept of the whole image, coloured by its main colour
    # ("gray Egyptian cat" is odd, so the class name stays as ImageNet spells it when it already
    # carries an attribute).
    for name, p in labels:
        if p < 0.3:
            break
        short = name.split(",")[0].strip()
        concepts.append(short if " " in short else f"{CONCEPT_COLOR.get(colors[0], colors[0])} {short}")
    return concepts


_MEMORY_ITEMS = 512
_memory: dict[str, Perception] = {}
_memory_lock = threading.Lock()


def perceive(pixels: np.ndarray, *, ocr: bool = False, db: str | Path | None = None,
             use_cache: bool = True) -> Perception:
    """Objects, colours, ImageNet labels, concepts and (with ``ocr=True``) text of an image.

    Parameters
    ----------
    pixels : ndarray
        Any Easel image (grey, RGB or RGBA; 8 or 16 bits).
    ocr : bool
        Also read text (about a second an image).
    db : path, optional
        SQLite database holding the persistent cache (table ``perception``); by default the
        library database (:func:`editor.library.default_library_path`).
    use_cache : bool
        False recomputes everything (and refreshes the caches).

    Examples
    --------
    >>> from skimage import data
    >>> p = perceive(data.coffee())                  # doctest: +SKIP
    >>> [o.label for o in p.objects], p.concepts[:1]  # doctest: +SKIP
    (['cup'], ['white cup'])
    """
    from editor.store import pixel_hash

    if pixels.ndim not in (2, 3) or min(pixels.shape[:2]) < 1:
        raise ValueError(f"expected an image array (H, W[, C]), got shape {pixels.shape}")
    digest = pixel_hash(pixels)
    if use_cache:
        cached = _cached(digest, db)
        if cached is not None and (not ocr or cached.text is not None):
            return cached
    else:
        cached = None
    rgb = to_rgb8(pixels)
    h, w = rgb.shape[:2]
    if cached is not None:  # everything but the text is known
        result = Perception(**{**cached.__dict__, "text": read_text(rgb)})
    else:
        from agent.perception.colour_terms import photo_light
        from agent.perception.naming import object_colour  # naming builds on this module

        light = photo_light(rgb)
        objects = [ObjectInfo(d.label, d.score, d.box, object_colour(rgb, d.box, d.label, light=light))
                   for d in detect_objects(rgb, min_score=0.5)]
        labels = classify(rgb)
        colors = _main_colors(rgb)
        result = Perception(digest, w, h, objects, labels, colors, _concepts(objects, labels, colors),
                            read_text(rgb) if ocr else None)
    result = Perception.from_json(result.to_json())  # rounded as stored, so cached == fresh
    _remember(result, db)
    return result


def _cache_path(db: str | Path | None) -> Path:
    if db is not None:
        return Path(db)
    from editor.library import default_library_path

    return default_library_path()


def _connect(path: Path):
    # The SQLite library the image library uses, since the cache shares its file (two SQLite
    # copies in one process must not open the same file; see editor.library).
    from editor.library import sqlite_module

    path.parent.mkdir(parents=True, exist_ok=True)
    # A short timeout: a busy database costs a cache miss, never a long stall.
    conn = sqlite_module().connect(str(path), timeout=2)
    conn.execute("pragma journal_mode=wal")
    conn.execute(
        "create table if not exists perception (hash text primary key, version integer, "
        "data text, created real)"
    )
    return conn


def _cached(digest: str, db: str | Path | None) -> Perception | None:
    with _memory_lock:
        hit = _memory.get(digest)
    if hit is not None:
        return hit
    import json

    from editor.library import sqlite_module

    try:
        conn = _connect(_cache_path(db))
        try:
            row = conn.execute("select version, data from perception where hash = ?", [digest]).fetchone()
        finally:
            conn.close()
    except sqlite_module().Error:  # a locked or read-only profile costs a recomputation, not a failure
        return None
    if row is None or row[0] != PERCEPTION_VERSION:
        return None
    result = Perception.from_json(json.loads(row[1]))
    with _memory_lock:
        _memory[digest] = result
    return result


def _remember(result: Perception, db: str | Path | None) -> None:
    import json
    import time

    from editor.library import sqlite_module

    with _memory_lock:
        if len(_memory) >= _MEMORY_ITEMS:
            _memory.pop(next(iter(_memory)))
        _memory[result.hash] = result
    try:
        conn = _connect(_cache_path(db))
        try:
            with conn:
                conn.execute("insert or replace into perception values (?, ?, ?, ?)",
                             [result.hash, PERCEPTION_VERSION, json.dumps(result.to_json()), time.time()])
        finally:
            conn.close()
    except sqlite_module().Error:
        pass


def seed_cache(entries: list[dict], *, db: str | Path | None = None) -> int:
    """Put known perceptions (``Perception.to_json()`` dicts) into the caches; returns how many."""
    for d in entries:
        _remember(Perception.from_json(d), db)
    return len(entries)


def clear_memory_cache() -> None:
    """Forget the in-memory cache (the database cache stays)."""
    with _memory_lock:
        _memory.clear()


def document_concepts(document) -> list[str]:
    """Concepts of a document's current image, for ``DialogueManager(concepts=document_concepts)``;
    ``[]`` without a document or when a model is missing (the conversation goes on without them)."""
    if document is None:
        return []
    try:
        return perceive(document.pixels()).concepts
    except (ModelMissingError, ValueError):
        return []

