"""Data for MITR: Localized Narratives JSONL plus per-image region features, and a tiny synthetic set.

Localized Narratives records (one JSON object a line) need ``image_id``, ``caption`` and ``traces``
(``[[{"x", "y", "t"}, ...], ...]``); other keys (``timed_caption``, ``annotator_id``...) are ignored.
A trace becomes a sequence of boxes, one per ``window`` seconds (:func:`agent.describe.traces.window_boxes`).

Region features are supplied by the user as ``.npz`` or ``.safetensors``: key ``<image_id>`` holds an
(R, F) array of R region features (or (F,) for one global feature); optional key
``<image_id>.boxes`` holds their (R, 4) normalised boxes (x1, y1, x2, y2). Without boxes, regions get
the whole-image box. Records whose image has no features are skipped and counted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from agent.describe.traces import TraceError, synthetic_trace, to_ln, validate_trace, window_boxes
from agent.learned.mitr import PAD, Vocab


@dataclass
class Example:
    image_id: str
    caption: str
    boxes: np.ndarray  # (N, 4) trace boxes, normalised


def load_ln_jsonl(path: str | Path, *, window: float = 1.0, max_boxes: int = 48) -> tuple[list[Example], int]:
    """Examples from a Localized Narratives JSONL file, and the number of bad lines skipped."""
    examples, bad = [], 0
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no such Localized Narratives file: {path}")
    with path.open(encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
                strokes = validate_trace(rec["traces"])
                cap = str(rec["caption"]).strip()
                if not cap:
                    raise ValueError("empty caption")
                boxes = np.asarray(window_boxes(strokes, window)[:max_boxes], np.float32)
                examples.append(Example(str(rec["image_id"]), cap, boxes))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError, TraceError):
                bad += 1
    return examples, bad


def load_features(path: str | Path) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """``image_id -> (features (R, F), boxes (R, 4))`` from a .npz or .safetensors file."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no such feature file: {path}")
    if path.suffix == ".npz":
        with np.load(path, allow_pickle=False) as z:
            raw = {k: z[k] for k in z.files}
    elif path.suffix == ".safetensors":
        from safetensors.numpy import load_file

        raw = load_file(str(path))
    else:
        raise ValueError(f"features must be .npz or .safetensors, got {path.name}")
    out = {}
    for key, arr in raw.items():
        if key.endswith(".boxes"):
            continue
        feats = np.asarray(arr, np.float32)
        if feats.ndim == 1:
            feats = feats[None]
        if feats.ndim != 2:
            raise ValueError(f"features of {key} must be (R, F), got shape {feats.shape}")
        boxes = raw.get(f"{key}.boxes")
        if boxes is None:
            boxes = np.tile(np.array([0, 0, 1, 1], np.float32), (len(feats), 1))
        boxes = np.asarray(boxes, np.float32)
        if boxes.shape != (len(feats), 4):
            raise ValueError(f"{key}.boxes must be ({len(feats)}, 4), got {boxes.shape}")
        out[key] = (feats, boxes)
    if not out:
        raise ValueError(f"{path} holds no features")
    dims = {f.shape[1] for f, _ in out.values()}
    if len(dims) != 1:
        raise ValueError(f"all images need features of one size; found sizes {sorted(dims)}")
    return out


def make_batch(examples: list[Example], feats: dict, vocab: Vocab, max_words: int,
               max_regions: int) -> dict[str, torch.Tensor]:
    """Pad a list of examples into the tensors :meth:`agent.learned.mitr.MITR.forward` takes."""
    b = len(examples)
    fdim = next(iter(feats.values()))[0].shape[1]
    nr = min(max_regions, max(len(feats[e.image_id][0]) for e in examples))
    nb = max(len(e.boxes) for e in examples)
    toks = [vocab.encode(e.caption, max_words) for e in examples]
    nw = max(len(t) for t in toks)
    out = {
        "feats": torch.zeros(b, nr, fdim), "feat_boxes": torch.zeros(b, nr, 4),
        "feat_mask": torch.zeros(b, nr, dtype=torch.bool),
        "boxes": torch.zeros(b, nb, 4), "box_mask": torch.zeros(b, nb, dtype=torch.bool),
        "words": torch.full((b, nw), PAD, dtype=torch.long),
    }
    for i, e in enumerate(examples):
        f, fb = feats[e.image_id]
        r = min(nr, len(f))
        out["feats"][i, :r] = torch.from_numpy(f[:r])
        out["feat_boxes"][i, :r] = torch.from_numpy(fb[:r])
        out["feat_mask"][i, :r] = True
        out["boxes"][i, : len(e.boxes)] = torch.from_numpy(e.boxes)
        out["box_mask"][i, : len(e.boxes)] = True
        out["words"][i, : len(toks[i])] = torch.tensor(toks[i])
    return out


# -- a tiny synthetic set (tests, smoke runs) --------------------------------------------------------------

_CLASSES = ["cat", "cup", "dog", "car", "person", "tree"]


def synthetic_set(directory: str | Path, n_images: int = 64, *, feat_dim: int = 16, seed: int = 0,
                  split: str = "train") -> tuple[Path, Path]:
    """Write a toy Localized-Narratives-like set: ``<split>.jsonl`` and ``<split>_features.npz``.

    Each image has 2 or 3 regions of distinct classes at random places; a region's feature is its
    class's prototype plus noise. The caption names the regions in the order the trace visits them
    ("a cat on the left, then a cup on the right."), so a model must read the trace to get the
    order right and read the caption to put the boxes in the right places.
    """
    rng = np.random.default_rng(seed)
    protos = np.random.default_rng(1234).normal(0, 1, (len(_CLASSES), feat_dim)).astype(np.float32)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    jsonl, npz = directory / f"{split}.jsonl", directory / f"{split}_features.npz"
    feats = {}
    with jsonl.open("w", encoding="utf-8") as f:
        for k in range(n_images):
            image_id = f"{split}{k:05d}"
            n = int(rng.integers(2, 4))
            classes = rng.choice(len(_CLASSES), n, replace=False)
            # distinct cells of a 2x2 grid so that position words are unambiguous
            cells = rng.choice(4, n, replace=False)
            boxes = []
            for c in cells:
                cx, cy = (c % 2) * 0.5, (c // 2) * 0.5
                w, h = rng.uniform(0.25, 0.45), rng.uniform(0.25, 0.45)
                x1, y1 = cx + rng.uniform(0, 0.5 - w), cy + rng.uniform(0, 0.5 - h)
                boxes.append((x1, y1, x1 + w, y1 + h))
            order = rng.permutation(n)
            words = []
            for j, i in enumerate(order):
                b = boxes[i]
                side = "left" if (b[0] + b[2]) / 2 < 0.5 else "right"
                row = "top" if (b[1] + b[3]) / 2 < 0.5 else "bottom"
                words.append(f"{'then ' if j else ''}a {_CLASSES[classes[i]]} at the {row} {side}")
            caption = ", ".join(words) + "."
            trace = synthetic_trace([boxes[i] for i in order], dwell=1.0, cover=0.7, rng=rng, jitter=0.005)
            f.write(json.dumps({"dataset_id": "synthetic", "image_id": image_id, "annotator_id": 0,
                                "caption": caption, "traces": to_ln(trace)}) + "\n")
            feats[image_id] = protos[classes] + rng.normal(0, 0.1, (n, feat_dim)).astype(np.float32)
            feats[f"{image_id}.boxes"] = np.asarray(boxes, np.float32)
    np.savez(npz, **feats)
    return jsonl, npz
