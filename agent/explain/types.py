"""The types of an explanation: the kinds of change, :class:`Finding` and :class:`Explanation`.

Every module of the package imports them from here; this module imports nothing else of the package."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

KINDS = (
    "identical", "unnamed", "rotate", "flip", "scale", "crop", "brightness", "contrast", "color_tint",
    "saturation", "warmth", "hue", "grayscale", "tone_curve", "color_changed", "sharpness",
    "background_removed", "background_replaced", "background_blurred", "reshoot", "object_added", "object_removed", "object_moved", "object_recolored",
    "region_changed",
)


GLOBAL_KINDS = KINDS[:KINDS.index("object_added")]


LOCAL_KINDS = KINDS[KINDS.index("object_added"):]


Box = list[int]


@dataclass
class Finding:
    """One change: its kind, measured parameters, boxes in both images and a sentence."""

    kind: str
    params: dict = field(default_factory=dict)
    before_box: Box | None = None
    after_box: Box | None = None
    sentence: str = ""

    @property
    def is_local(self) -> bool:
        return self.kind in LOCAL_KINDS

    def as_json(self) -> dict:
        return {"kind": self.kind, "params": jsonable(self.params), "before_box": self.before_box,
                "after_box": self.after_box, "sentence": self.sentence}


@dataclass
class Explanation:
    """The findings for one pair of images and the answer built from them."""

    findings: list[Finding]
    text: str
    before_size: tuple[int, int]  # (width, height)
    after_size: tuple[int, int]
    matrix: list[list[float]] | None = None  # 2x3, before pixel -> after pixel; None if not aligned
    unchanged_fraction: float = 0.0  # of the after image's area explained by the global model
    aligned: bool = True

    def kinds(self) -> list[str]:
        return [f.kind for f in self.findings]

    def as_json(self) -> dict:
        return {
            "findings": [f.as_json() for f in self.findings],
            "text": self.text,
            "before_size": list(self.before_size),
            "after_size": list(self.after_size),
            "matrix": self.matrix,
            "unchanged_fraction": round(float(self.unchanged_fraction), 4),
            "aligned": self.aligned,
        }


def jsonable(v):
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if isinstance(v, np.generic):
        return v.item()
    return v


def told(findings: list[Finding]) -> str:
    """The findings' sentences as one text, each said once (two groups removed at the bottom left
    are one sentence, and both boxes)."""
    return " ".join(dict.fromkeys(f.sentence for f in findings))
