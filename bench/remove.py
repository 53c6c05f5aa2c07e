"""Object removal on composed photos: is the object gone, is the rest untouched, how good is the fill?

Each case pastes an object (a cat, a person or a cup, cut out of scikit-image's sample photos with
u2netp's mask) onto a background photo whose clean version is kept, then runs Easel's removal
(:func:`agent.edits.objects.remove_objects`'s steps: detector box, mask inside it, dilation, fill) and
reports, per case:

- whether the detector found the object before, and no longer finds it after (no detection of its
  class overlapping the pasted object's box by IoU > 0.3, at the detector's second-look threshold);
- that every pixel outside the dilated mask is unchanged;
- the PSNR of the filled region against the clean background, for Easel's fill and for OpenCV's
  ``cv2.inpaint`` Telea (radius 5) on the same mask, in the same run;
- detail kept: the standard deviation of the Laplacian over the filled region, as a share of the
  clean background's (1 = as much fine texture as the real background; a smooth fill is near 0).
  PSNR rewards a smooth fill on texture (a plausible but misaligned grass texture has about twice
  the squared error of its blur), so the two figures are read together;
- times: the whole removal and the two fills, and the fill per megapixel of the photo;
- the share of the pasted object's pixels inside the hole (the mask is the object's own);
- removed from a drawn stroke instead (a rough brush stroke over the object, no detector:
  :func:`agent.edits.objects.remove_region`): gone or not, PSNR against Telea on the same hole.

Then a cat pasted beside a person, their boxes overlapping: "remove the cat" / "remove the person"
with the neighbour left out of the mask (Easel's removal) and with the object's own mask alone,
the share of the neighbour's pixels taken.

Then one case scaled to 12 megapixels times both fills (machines shared with other work make
absolute times noisy: compare the ratio, measured in the same run).

    .venv/bin/python bench/remove.py [--quick] [--json]

Figures at bb96a28 (load average ~1): found by name 14/18 (the cup missed on 4 backgrounds), gone
after Easel's fill 14/14, outside unchanged 18/18, mean PSNR Easel 15.67 dB / Telea 15.92 dB (Easel
higher in 7/14), detail 0.83 / 0.19, median share of the object in the hole 99.3%; from a drawn
stroke gone 18/18, median PSNR Easel 14.50 / Telea 15.56 dB (Easel higher in 4/18). Neighbour
beside it: pixels of the other one taken 1.1-8.3% (its own mask alone: 5.4-49.2%), the named one
covered 93.4-99.6% (alone 94.0-99.7%). 12 MP, 17.6% hole: Easel/Telea 0.36.

With the fill settled on a membrane (fill2, load average ~2): found 14/18, gone 14/14, outside
unchanged 18/18, mean PSNR Easel 16.56 dB / Telea 15.92 dB (Easel higher in 9/14), detail 0.59 /
0.19; from a drawn stroke gone 18/18, median PSNR Easel 15.66 / Telea 15.56 dB (higher in 10/18).
12 MP, 17.6% hole: 0.26 s/MP against Telea's 0.31 (0.86).

With the texture kept (fill3: the copy's fine detail whole, its coarser texture where strong; load
average ~3): found 14/18, gone 14/14, outside unchanged 18/18, mean PSNR Easel 16.30 dB / Telea
15.92 dB (Easel higher in 6/14), detail 0.77 / 0.19; from a drawn stroke gone 18/18, median PSNR
Easel 15.18 / Telea 15.56 dB (higher in 5/18: these backgrounds are mostly strong textures, whose
copy is now kept). 12 MP, 17.6% hole: 0.40 s/MP against Telea's 0.67 (0.59).

With the settling's membrane guided by the copy and thin lines carried through (load average ~1):
found 14/18, gone 14/14, outside unchanged 18/18, mean PSNR Easel 16.48 dB / Telea 15.92 dB
(Easel higher in 7/14), detail 0.77 / 0.19; from a drawn stroke gone 18/18, median PSNR Easel
15.19 / Telea 15.56 dB (higher in 5/18). The cat removed from a stroke over green_field's horizon
went from 18.2 to 22.6 dB (Telea 23.5: no sky-and-grass haze any more); over snowy_tree it lost
(11.2 -> 8.7 dB, Telea 12.8): the copy fills the tree's hidden part with snow and the membrane no
longer smears the tree's green into it. 12 MP, 17.6% hole: 0.38 s/MP against Telea's 0.32 (1.18).
With the copy's shading and structure kept and its faint band settled only under 5 levels of
texture (bench/fill.py; load average ~1): found 14/18, gone 14/14, outside unchanged 18/18, mean
PSNR Easel 16.90 dB / Telea 16.19 dB (Easel higher in 7/14), detail 0.94 / 0.19; from a drawn
stroke gone 18/18, median PSNR Easel 15.27 / Telea 15.56 dB (higher in 7/18). Neighbour beside it
unchanged (1.1-3.3% of its pixels taken). 12 MP, 17.6% hole: 0.23 s/MP against Telea's 0.20 (1.12).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agent.edits import objects  # noqa: E402
from agent.perception.things import detect  # noqa: E402
from editor import ops  # noqa: E402
from editor.fill import hole_psnr, inpaint  # noqa: E402

LIBRARY = ROOT / "resources" / "library"


def _read(name: str) -> np.ndarray:
    from skimage import data

    if hasattr(data, name):
        img = getattr(data, name)()
    else:
        img = cv2.cvtColor(cv2.imread(str(LIBRARY / f"{name}.jpg")), cv2.COLOR_BGR2RGB)
    if img.ndim == 2:
        img = np.repeat(img[:, :, None], 3, axis=2)
    return np.ascontiguousarray(img[:, :, :3])


def cutout(name: str, crop: tuple[int, int, int, int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """An object photo (optionally cropped) and its u2netp mask in [0, 1], tight around the mask."""
    img = _read(name)
    if crop is not None:
        x1, y1, x2, y2 = crop
        img = img[y1:y2, x1:x2]
    # A hard mask, feathered by a pixel: u2netp's faint halo would paste bits of the object's own
    # background that no mask of the object covers, and those remnants would be charged to the fill.
    m = cv2.GaussianBlur((ops.subject_mask(img) > 0.5).astype(np.float32), (0, 0), 1.0)
    ys, xs = np.nonzero(m > 0.5)
    y1, y2, x1, x2 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    return img[y1:y2, x1:x2].copy(), m[y1:y2, x1:x2].copy()


def compose(bg: np.ndarray, obj: np.ndarray, mask: np.ndarray, *, height: float, cx: float,
            bottom: float) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """``obj`` scaled to ``height`` of the background's height, its bottom centre at (cx, bottom)
    (fractions of the background), alpha-blended by its mask. Returns the photo and the paste box."""
    h, w = bg.shape[:2]
    s = height * h / obj.shape[0]
    ow, oh = max(8, round(obj.shape[1] * s)), max(8, round(obj.shape[0] * s))
    o = cv2.resize(obj, (ow, oh), interpolation=cv2.INTER_AREA).astype(np.float32)
    m = cv2.resize(mask, (ow, oh), interpolation=cv2.INTER_LINEAR)[:, :, None]
    x1 = int(np.clip(cx * w - ow / 2, 0, w - ow))
    y1 = int(np.clip(bottom * h - oh, 0, h - oh))
    out = bg.copy()
    region = out[y1:y1 + oh, x1:x1 + ow].astype(np.float32)
    out[y1:y1 + oh, x1:x1 + ow] = np.clip(m * o + (1 - m) * region + 0.5, 0, 255).astype(np.uint8)
    return out, (x1, y1, x1 + ow, y1 + oh)


def _iou(a, b) -> float:
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union else 0.0


def still_there(img: np.ndarray, label: str, box) -> bool:
    return any(d.label == label and _iou(d.box, box) > 0.3
               for d in detect(img, min_score=objects.SECOND_LOOK))


def detail(img: np.ndarray, clean: np.ndarray, hole: np.ndarray) -> float:
    """Fine texture over the hole as a share of the clean background's (Laplacian std ratio)."""
    def lap(x):
        return cv2.Laplacian(cv2.cvtColor(x, cv2.COLOR_RGB2GRAY).astype(np.float32), cv2.CV_32F)[hole].std()
    inner = cv2.erode(hole.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0  # not the seam
    hole = inner if inner.any() else hole
    return float(lap(img) / max(lap(clean), 1e-6))


@dataclass
class Result:
    case: str
    found_before: bool
    gone_after: bool
    gone_after_telea: bool
    outside_unchanged: bool
    hole_share: float
    psnr_easel: float
    psnr_telea: float
    detail_easel: float
    detail_telea: float
    seconds_remove: float
    seconds_fill: float
    seconds_telea: float
    covered: float = float("nan")  # share of the pasted object's pixels inside the hole
    stroke_gone: bool = False  # removed from a drawn stroke: no longer detected
    stroke_psnr_easel: float = float("nan")
    stroke_psnr_telea: float = float("nan")


def stroke_over(obj_mask: np.ndarray, seed: int) -> np.ndarray:
    """A rough brush stroke over the object, as a person draws it: its mask dilated by 8% of its
    larger side plus a seeded wobble, and closed."""
    ys, xs = np.nonzero(obj_mask)
    side = max(np.ptp(ys), np.ptp(xs)) + 1
    r = int(0.08 * side) + 2
    m = cv2.dilate(obj_mask.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
    rng = np.random.default_rng(seed)
    for _ in range(6):  # the brush overshoots here and there
        y, x = int(rng.choice(ys)), int(rng.choice(xs))
        cv2.circle(m, (x, y), int(r * rng.uniform(1, 2)), 1, -1)
    return cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((r, r), np.uint8)) > 0


def run_case(name: str, bg: np.ndarray, obj, label: str, words: str, **where) -> Result:
    comp, box = compose(bg, *obj, **where)
    truth = np.abs(comp.astype(np.int16) - bg.astype(np.int16)).max(axis=2) > 8  # the pasted object
    nan = float("nan")
    # drawn: the person's stroke over it (no detector), a removal Telea is given the same hole for
    stroke = stroke_over(truth, len(name))
    r = int(0.015 * max(box[2] - box[0], box[3] - box[1])) + 3
    s_hole = cv2.dilate(stroke.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))) > 0
    by_stroke = objects.remove_region(comp, stroke.astype(np.float32))
    s_telea = cv2.inpaint(comp, s_hole.astype(np.uint8), 5, cv2.INPAINT_TELEA)
    drawn = dict(stroke_gone=not still_there(by_stroke, label, box), stroke_psnr_easel=hole_psnr(by_stroke, bg, s_hole),
                 stroke_psnr_telea=hole_psnr(s_telea, bg, s_hole))
    t0 = time.perf_counter()
    try:
        hole, found_, kept = objects.removal_hole(comp, words)
        boxes = [b for m in found_ for b in m.boxes]
    except objects.ObjectNotFound:
        boxes = []
    found = any(_iou(b, box) > 0.3 for b in boxes)
    if not boxes:
        return Result(name, False, False, False, True, 0.0, nan, nan, nan, nan, 0, 0, 0, **drawn)
    t1 = time.perf_counter()
    ours = inpaint(comp, hole, avoid=kept)
    t2 = time.perf_counter()
    telea = cv2.inpaint(comp, hole.astype(np.uint8), 5, cv2.INPAINT_TELEA)
    t3 = time.perf_counter()
    return Result(
        name, found, not still_there(ours, label, box), not still_there(telea, label, box),
        bool(np.array_equal(ours[~hole], comp[~hole])), float(hole.mean()),
        hole_psnr(ours, bg, hole), hole_psnr(telea, bg, hole),
        detail(ours, bg, hole), detail(telea, bg, hole),
        t2 - t0, t2 - t1, t3 - t2, float(hole[truth].mean()), **drawn,
    )


def neighbour_cases(quick: bool) -> list[dict]:
    """A cat pasted beside a person, overlapping their boxes, on a few backgrounds: "remove the cat"
    and "remove the person", each with the neighbours left out of the mask (Easel's removal) and
    without (the object's own u2netp mask, as before): the share of the other one's visible pixels
    the hole takes, and of the named one's it covers."""
    cat, person = cutout("chelsea"), cutout("astronaut", (0, 0, 380, 512))
    out = []
    for b in (["grass"] if quick else ["grass", "gravel", "brick"]):
        bg = _read(b)
        comp, _ = compose(bg, *person, height=0.75, cx=0.62, bottom=0.98)
        p_mask = np.abs(comp.astype(np.int16) - bg.astype(np.int16)).max(axis=2) > 8
        comp2, _ = compose(comp, *cat, height=0.4, cx=0.38, bottom=0.95)
        c_mask = np.abs(comp2.astype(np.int16) - comp.astype(np.int16)).max(axis=2) > 8
        p_mask &= ~c_mask
        for words, mine, other in (("the cat", c_mask, p_mask), ("the person", p_mask, c_mask)):
            try:
                boxes = objects.find_objects(comp2, words)
            except objects.ObjectNotFound:
                out.append({"case": f"{words} on {b}", "found": False})
                continue
            keep = objects.neighbour_boxes(comp2, boxes)
            apart, alone = objects.removal_mask(comp2, boxes, keep=keep), objects.removal_mask(comp2, boxes)
            out.append({"case": f"{words} beside the other on {b}", "found": True,
                        "covered": float(apart[mine].mean()), "covered_alone": float(alone[mine].mean()),
                        "neighbour_taken": float(apart[other].mean()), "neighbour_taken_alone": float(alone[other].mean())})
    return out


def cases(quick: bool):
    cat = cutout("chelsea")
    person = cutout("astronaut", (0, 0, 380, 512))
    cup = cutout("coffee", (150, 0, 450, 260))
    backgrounds = ["grass", "gravel", "brick", "green_field", "snowy_tree", "sunset"]
    objs = [("cat", cat, "the cat", dict(height=0.45, cx=0.35, bottom=0.85)),
            ("person", person, "the person", dict(height=0.7, cx=0.6, bottom=0.98)),
            ("cup", cup, "the cup", dict(height=0.3, cx=0.5, bottom=0.7))]
    if quick:
        backgrounds, objs = backgrounds[:2], objs[:2]
    for b in backgrounds:
        bg = _read(b)
        for label, obj, words, where in objs:
            yield f"{label} on {b}", bg, obj, label, words, where


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="4 cases and no 12-MP timing")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    # Load the models and compile the fill once, so the first case is not charged for it.
    warm = _read("grass")
    objects.find_objects(_read("chelsea"), "the cat")
    inpaint(warm, np.pad(np.ones((64, 64), bool), 224))  # large enough to compile every stage
    results = []
    for name, bg, obj, label, words, where in cases(args.quick):
        r = run_case(name, bg, obj, label, words, **where)
        results.append(r)
        if not args.json:
            print(f"{r.case:24} found {'yes' if r.found_before else 'NO ':3} covered {r.covered:4.0%}  gone: easel "
                  f"{'yes' if r.gone_after else 'NO ':3} telea {'yes' if r.gone_after_telea else 'NO ':3}"
                  f"  outside unchanged {'yes' if r.outside_unchanged else 'NO'}  hole {r.hole_share:5.1%}"
                  f"  PSNR easel {r.psnr_easel:5.2f} dB telea {r.psnr_telea:5.2f} dB"
                  f"  detail easel {r.detail_easel:4.2f} telea {r.detail_telea:4.2f}"
                  f"  fill {r.seconds_fill:5.2f}s telea {r.seconds_telea:5.2f}s remove {r.seconds_remove:5.2f}s"
                  f" | stroke: gone {'yes' if r.stroke_gone else 'NO'} PSNR easel {r.stroke_psnr_easel:5.2f} "
                  f"telea {r.stroke_psnr_telea:5.2f}", flush=True)
    ok = [r for r in results if r.found_before]
    summary = {
        "cases": len(results), "found": len(ok),
        "gone_easel": sum(r.gone_after for r in ok), "gone_telea": sum(r.gone_after_telea for r in ok),
        "outside_unchanged": sum(r.outside_unchanged for r in results),
        "mean_psnr_easel": float(np.mean([r.psnr_easel for r in ok])) if ok else float("nan"),
        "mean_psnr_telea": float(np.mean([r.psnr_telea for r in ok])) if ok else float("nan"),
        "easel_better": sum(r.psnr_easel > r.psnr_telea for r in ok),
        "mean_detail_easel": float(np.mean([r.detail_easel for r in ok])) if ok else float("nan"),
        "mean_detail_telea": float(np.mean([r.detail_telea for r in ok])) if ok else float("nan"),
        "median_covered": float(np.median([r.covered for r in ok])) if ok else float("nan"),
        "stroke_gone": sum(r.stroke_gone for r in results),
        "median_stroke_psnr_easel": float(np.median([r.stroke_psnr_easel for r in results])),
        "median_stroke_psnr_telea": float(np.median([r.stroke_psnr_telea for r in results])),
        "stroke_easel_better": sum(r.stroke_psnr_easel > r.stroke_psnr_telea for r in results),
    }
    neighbours = neighbour_cases(args.quick)
    if not args.quick:
        bg = cv2.resize(_read("grass"), (4000, 3000), interpolation=cv2.INTER_CUBIC)
        comp, box = compose(bg, *cutout("chelsea"), height=0.45, cx=0.35, bottom=0.85)
        boxes = objects.find_objects(comp, "the cat")
        hole = objects.removal_mask(comp, boxes)
        t0 = time.perf_counter()
        inpaint(comp, hole)
        t1 = time.perf_counter()
        cv2.inpaint(comp, hole.astype(np.uint8), 5, cv2.INPAINT_TELEA)
        t2 = time.perf_counter()
        mp = comp.shape[0] * comp.shape[1] / 1e6
        summary.update({"big_megapixels": mp, "big_hole_share": float(hole.mean()),
                        "big_easel_s_per_mp": (t1 - t0) / mp, "big_telea_s_per_mp": (t2 - t1) / mp,
                        "big_easel_over_telea": (t1 - t0) / (t2 - t1)})
    if args.json:
        print(json.dumps({"results": [asdict(r) for r in results], "summary": summary, "neighbours": neighbours},
                         indent=1))
    else:
        print(f"\nobject found in {summary['found']}/{summary['cases']}; gone after Easel's fill in "
              f"{summary['gone_easel']}/{summary['found']}, after Telea's in {summary['gone_telea']}/"
              f"{summary['found']}; outside the mask unchanged in {summary['outside_unchanged']}/"
              f"{summary['cases']}")
        print(f"filled-region PSNR against the clean background: Easel {summary['mean_psnr_easel']:.2f} dB, "
              f"Telea {summary['mean_psnr_telea']:.2f} dB (Easel higher in {summary['easel_better']}/"
              f"{summary['found']})")
        print(f"fine detail kept in the filled region (1 = as much as the clean background): Easel "
              f"{summary['mean_detail_easel']:.2f}, Telea {summary['mean_detail_telea']:.2f}")
        print(f"removed by name: median share of the object inside the hole {summary['median_covered']:.1%}")
        print(f"removed from a drawn stroke: gone in {summary['stroke_gone']}/{summary['cases']}; median PSNR "
              f"Easel {summary['median_stroke_psnr_easel']:.2f} dB, Telea {summary['median_stroke_psnr_telea']:.2f} dB "
              f"(Easel higher in {summary['stroke_easel_better']}/{summary['cases']})")
        for n in neighbours:
            if n["found"]:
                print(f"{n['case']:34} named one covered {n['covered']:.1%} (own mask alone {n['covered_alone']:.1%}); "
                      f"neighbour's pixels taken {n['neighbour_taken']:.1%} (own mask alone {n['neighbour_taken_alone']:.1%})")
            else:
                print(f"{n['case']:34} not found")
        if "big_megapixels" in summary:
            print(f"{summary['big_megapixels']:.1f}-MP photo, hole {summary['big_hole_share']:.1%}: Easel's fill "
                  f"{summary['big_easel_s_per_mp']:.2f} s/MP, Telea {summary['big_telea_s_per_mp']:.2f} s/MP "
                  f"(ratio {summary['big_easel_over_telea']:.2f}, same run)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
