"""Pairs made by the operations Easel has beyond CAISE's, for ``bench/explain.py --ops``.

saturation, sharpness (sharpen and blur), warmth, hue, grayscale, auto_enhance
(:mod:`editor.adjust`), remove <object> (:func:`agent.edits.objects.remove_objects`: detector, u2netp
mask, PatchMatch fill), background <colour>|blur|transparent (:func:`agent.edits.objects.background`),
crop to an aspect or to an object (:mod:`agent.edits.objects`), and a few of them combined with
brightness or contrast. Dev pairs are made on the photos ``bench/explain.py`` already uses; the
held-out pairs on others (scikit-learn's two sample photos and scikit-image's cat, colour wheel,
moon and grass), with another seed, and were not looked at while the explainer was tuned.
"""

from __future__ import annotations

import math

import numpy as np

from agent.edits import objects
from editor import adjust, ops, regions

BG_COLOURS = ("white", "grey", "skyblue", "yellow", "pink", "green")


def held_out_bases() -> dict[str, np.ndarray]:
    from skimage import data
    from sklearn.datasets import load_sample_images

    from training.speaker_data import fit_pair

    china, flower = load_sample_images().images
    bases = {"china": china, "flower": flower, "cat": data.cat(), "colorwheel": data.colorwheel(),
             "moon": data.moon(), "grass": data.grass()}
    return {k: fit_pair(v) for k, v in bases.items()}


def _amount(rng, lo, hi):
    return round(float(rng.choice([-1, 1]) * rng.uniform(lo, hi)), 1)


def _subject(img):
    m = ops.subject_mask(img) > 0.5
    if not 0.1 < float(m.mean()) < 0.85:
        return None
    ys, xs = np.nonzero(m)
    return [int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1]


def _object(img):
    """A detected COCO object of a useful size: (words, box) or None."""
    from agent.perception.things import detect

    rgb = img if img.ndim == 3 else np.repeat(img[:, :, None], 3, axis=2)
    h, w = img.shape[:2]
    for d in detect(rgb, min_score=0.5):
        x1, y1, x2, y2 = (int(v) for v in d.box)
        if 0.02 < (x2 - x1) * (y2 - y1) / (w * h) < 0.35:
            return f"the {d.label}", [x1, y1, x2, y2]
    return None


def _aspect_box(img, aspect, centre):
    h, w = img.shape[:2]
    r = regions.aspect_ratio(aspect)
    cw, ch = min(w, max(1, int(math.floor(h * r + 0.5)))), min(h, max(1, int(math.floor(w / r + 0.5))))
    cx, cy = ((w / 2, h / 2) if centre is None else ((centre[0] + centre[2]) / 2, (centre[1] + centre[3]) / 2))
    left = int(min(max(math.floor(cx - cw / 2 + 0.5), 0), w - cw))
    top = int(min(max(math.floor(cy - ch / 2 + 0.5), 0), h - ch))
    return [left, top, left + cw, top + ch]


def op(name: str, rng, img):
    """(after, truth) for one operation, or None where it does not apply to this photo."""
    colour = img.ndim == 3
    if name == "saturation" and colour:
        p = _amount(rng, 15, 70)
        return adjust.adjust_saturation(img, amount=p), {"saturation": {"amount": p}}
    if name == "sharpen":
        p = round(float(rng.uniform(20, 100)), 1)
        return adjust.adjust_sharpness(img, amount=p), {"sharpness": {"amount": p}}
    if name == "blur":
        p = -round(float(rng.uniform(15, 80)), 1)
        return adjust.adjust_sharpness(img, amount=p), {"sharpness": {"amount": p}}
    if name == "warmth" and colour:
        p = _amount(rng, 15, 80)
        return adjust.adjust_warmth(img, amount=p), {"warmth": {"amount": p}}
    if name == "hue" and colour:
        d = _amount(rng, 10, 120)
        return adjust.adjust_hue(img, degrees=d), {"hue": {"degrees": d}}
    if name == "grayscale" and colour:
        return adjust.grayscale(img), {"grayscale": {}}
    if name == "auto_enhance":
        out = adjust.auto_enhance(img)
        if np.abs(out.astype(np.int16) - img).mean() < 2:  # it did almost nothing to this photo
            return None
        return out, {"tone_curve": {}}
    if name == "remove":
        hit = _object(img)
        if hit is None:
            return None
        try:
            out = objects.remove_objects(img, hit[0])
        except objects.ObjectNotFound:
            return None
        return out, {"object_removed": {"before_box": hit[1], "words": hit[0]}}
    if name.startswith("background"):
        box = _subject(img)
        if box is None:
            return None
        mode = name.split()[1] if " " in name else BG_COLOURS[int(rng.integers(len(BG_COLOURS)))]
        out = objects.background(img, mode)
        kind = {"blur": "background_blurred", "transparent": "background_removed"}.get(mode, "background_replaced")
        t = {"after_box": box}
        if kind == "background_replaced":
            t["color"] = "grey" if mode == "gray" else mode
        return out, {kind: t}
    if name == "crop_aspect":
        aspect = ("square", "4:3", "16:9")[int(rng.integers(3))]
        box = _aspect_box(img, aspect, objects.subject_box(img))
        if box[2] - box[0] == img.shape[1] and box[3] - box[1] == img.shape[0]:
            return None
        return objects.crop_aspect(img, aspect), {"crop": {"box": box}}
    if name == "crop_object":
        hit = _object(img)
        if hit is None:
            return None
        x1, y1, x2, y2 = hit[1]
        dx, dy = (x2 - x1) * 0.1, (y2 - y1) * 0.1
        h, w = img.shape[:2]
        box = [max(0, math.floor(x1 - dx)), max(0, math.floor(y1 - dy)), min(w, math.ceil(x2 + dx)),
               min(h, math.ceil(y2 + dy))]
        return objects.crop_object(img, hit[0]), {"crop": {"box": box}}
    if "+" in name:
        first, second = name.split("+")
        r = op(first, rng, img)
        if r is None:
            return None
        after, truth = r
        p = _amount(rng, 10, 40)
        if second == "brightness":
            after = ops.adjust_brightness(after, amount=p)
        else:
            after = ops.adjust_contrast(after, amount=p)
        truth[second] = {"amount": p}
        return after, truth
    return None


OPS = ("saturation", "sharpen", "blur", "warmth", "hue", "grayscale", "auto_enhance", "remove",
       "background", "background blur", "background transparent", "crop_aspect", "crop_object",
       "saturation+brightness", "warmth+contrast", "sharpen+brightness", "hue+contrast")


EXTRA_OPS = ("background blur", "remove")


def extra_dev_pairs(bases: dict, seed: int):
    """``(base, op, before, after, truth)``: a blurred background and a removed object on every dev
    photo where they apply (the photos with a clear subject or a detected object, busy ones
    included), which the per-operation turns of :func:`make_op_pairs` reach only a few of."""
    rng = np.random.default_rng(seed + 500)
    for name in EXTRA_OPS:
        for base, img in bases.items():
            r = op(name, rng, img)
            if r is not None:
                yield base, name, img, r[0], r[1]


def make_op_pairs(bases: dict, seed: int, per_op: int):
    """``(base, op, before, after, truth)``: ``per_op`` pairs an operation, bases taken in turn."""
    rng = np.random.default_rng(seed)
    names = list(bases)
    for k, name in enumerate(OPS):
        made, tries = 0, 0
        while made < per_op and tries < 3 * len(names):
            base = names[(k + tries) % len(names)]
            tries += 1
            r = op(name, rng, bases[base])
            if r is None:
                continue
            made += 1
            yield base, name, bases[base], r[0], r[1]


AMOUNT = {"saturation": "amount", "warmth": "amount", "sharpness": "amount", "hue": "degrees",
          "brightness": "amount", "contrast": "amount"}
TOLERANCE = {"saturation": 8, "warmth": 8, "sharpness": 15, "hue": 8, "brightness": 6, "contrast": 6}
_CURVE_OK = {"tone_curve", "brightness", "contrast"}


def score_op(exp, truth, iou) -> dict:
    """Kinds right (exactly), amounts within tolerance, boxes with IoU > 0.5, colours named right."""
    from agent.explain import LOCAL_KINDS

    pred = {}
    for f in exp.findings:
        pred.setdefault(f.kind, f)
    pk, tk = set(pred), set(truth)
    if "tone_curve" in tk:  # auto_enhance may be a plain levels stretch: contrast and brightness
        exact = bool(pk) and pk <= _CURVE_OK and not any(k in LOCAL_KINDS for k in pk)
    else:
        exact = pk == tk
    out = {"exact": exact, "pred": sorted(pk), "amount_ok": True, "box_ok": None}
    for k, t in truth.items():
        if k in AMOUNT and AMOUNT[k] in t:
            f = pred.get(k)
            ok = f is not None and abs(f.params.get(AMOUNT[k], 1e9) - t[AMOUNT[k]]) <= TOLERANCE[k]
            out["amount_ok"] &= ok
        if k == "background_replaced":
            f = pred.get(k)
            out["amount_ok"] &= bool(f and f.params.get("color") == t["color"])
        if k == "crop" and "crop" in pred:
            out["box_ok"] = iou(pred["crop"].params.get("box"), t["box"]) > 0.9
        elif k == "object_removed":
            out["iou"] = max([iou(f.before_box, t["before_box"]) for f in exp.findings
                              if f.kind == "object_removed"], default=0.0)
            out["box_ok"] = out["iou"] > 0.5
        elif "after_box" in t:
            f = pred.get(k)
            out["iou"] = iou(f.after_box, t["after_box"]) if f else 0.0
            out["box_ok"] = out["iou"] > 0.5
    out["ok"] = out["exact"] and out["amount_ok"] and out["box_ok"] is not False
    return out
