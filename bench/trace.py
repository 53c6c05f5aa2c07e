"""Benchmark of trace-controlled captions and of ``locate`` on composite scenes with known answers.

Each scene pastes 2 or 3 objects the COCO detector knows, cut from scikit-image's photos (chelsea's
cat, coffee's cup, the astronaut, the stereo motorcycle), at random non-overlapping places on a
640x480 background (flat colour, or sky over grass); in 30% of scenes two of them are the same kind.
A human-like trace goes over them in a random order: a jittered loop over each object (random dwell
and size), either in one stroke that crosses the background between objects or with the pen lifted
and a pause between objects.

Measured:
- order accuracy: the caption names exactly the traced objects, in trace order (the object labels
  of its segments, and of the noun phrases read back from its text);
- LBM(k=0), LBM(k=1) of ``locate`` against the true boxes, given a reference caption written from
  the scene ("a cat on the left, then a cup to its right, ..."), and given our own caption (cycle);
- as references measured in the same run: LBM of a baseline that puts every box at the centre
  third of the image, and the detector's recall of the pasted objects (IoU >= 0.5).

Then the development set's parts (bench/devset.py) and its photo part (bench/photoset.py: traces
over whole real photos with hand-labelled boxes, the same figures, ``--photos N``; its second photo
part, places and close-ups from the Debian package mate-backgrounds, ``--photos2 N``: install it
with ``apt-get install mate-backgrounds``). For the photo parts the dwells on regions (the sky, the
trees, the floor) are also counted by how they were said: with an accepted word, as "a <colour>
area", as an object (a noun or "an object"), or not at all. ``--animals N`` and
``--animals-held N``: traces over real photos of animals and people (bench/animals.py; its
development and held-out photos apart, the held-out part printing figures only): each traced thing
named right, with a kind word ("an animal", "a bird"), generically, or with a wrong noun.

    OMP_NUM_THREADS=1 .venv/bin/python bench/trace.py [--scenes 100] [--seed 0] [--photos 60]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from agent.describe.caption import caption_trace, locate, position_words  # noqa: E402
from agent.describe.traces import synthetic_trace, to_ln  # noqa: E402
from agent.perception.models import box_iou as _iou  # noqa: E402
from agent.perception.models import detect_objects  # noqa: E402
from agent.perception.things import parse_phrases
from training.metrics_lbm import lbm  # noqa: E402

W, H = 640, 480


def object_crops() -> dict[str, np.ndarray]:
    from skimage import data

    left, _, _ = data.stereo_motorcycle()
    return {"cat": data.chelsea()[0:300, 0:410], "cup": data.coffee()[10:250, 170:415],
            "person": data.astronaut()[0:512, 0:380], "motorcycle": left[60:450, 100:690]}


def background(rng: np.random.Generator) -> np.ndarray:
    if rng.random() < 0.5:
        col = rng.integers(120, 230, 3)
        img = np.empty((H, W, 3), np.float32)
        img[:] = col
    else:  # sky over grass
        img = np.empty((H, W, 3), np.float32)
        horizon = int(H * rng.uniform(0.45, 0.6))
        img[:horizon] = (135, 190, 235)
        img[horizon:] = (70, 140, 60)
    img += rng.normal(0, 6, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def make_scene(rng: np.random.Generator, crops: dict[str, np.ndarray]):
    names = [str(n) for n in rng.choice(list(crops), size=int(rng.integers(2, 4)), replace=False)]
    if rng.random() < 0.3:  # two of a kind: only position words tell them apart
        names[-1] = names[0]
    img = background(rng)
    boxes: list[tuple[int, int, int, int]] = []
    for name in names:
        c = crops[name]
        for _ in range(200):
            s = rng.uniform(150, 220) / max(c.shape[:2])
            ch, cw = int(c.shape[0] * s), int(c.shape[1] * s)
            x, y = int(rng.integers(0, W - cw)), int(rng.integers(0, H - ch))
            box = (x, y, x + cw, y + ch)
            if all(_iou(box, b) == 0 and not _near(box, b) for b in boxes):
                break
        else:
            return None
        img[y:y + ch, x:x + cw] = cv2.resize(c, (cw, ch), interpolation=cv2.INTER_AREA)
        boxes.append(box)
    return img, names, boxes


def _near(a, b, gap: int = 8) -> bool:
    return not (a[2] + gap <= b[0] or b[2] + gap <= a[0] or a[3] + gap <= b[1] or b[3] + gap <= a[1])


def human_trace(rng: np.random.Generator, boxes_norm: list, lift: bool) -> list[np.ndarray]:
    """Loops over each box in turn: random dwell (0.8-2.5 s) and size (40-100% of the box, so it
    may touch the edges), jitter; either one stroke (moving across the background between boxes)
    or one stroke per box with a pen lift and a pause between them."""
    strokes, t = [], 0.0
    for b in boxes_norm:
        s = synthetic_trace([b], dwell=float(rng.uniform(0.8, 2.5)), cover=float(rng.uniform(0.4, 1.0)),
                            rng=rng, jitter=0.01)[0]
        s[:, 2] += t
        t = s[-1, 2] + (float(rng.uniform(0.3, 1.5)) if lift else 0.3)
        strokes.append(s)
    if lift:
        return strokes
    out = [strokes[0]]
    for s in strokes[1:]:  # travel in a straight line to the next loop
        a, b = out[-1][-1], s[0]
        k = np.linspace(0, 1, 8)[1:-1, None]
        move = a + k * (b - a)
        out[-1] = np.concatenate([out[-1], move, s])
    return out


def reference_caption(names: list[str], boxes: list, order: list[int]) -> str:
    parts = []
    for k, i in enumerate(order):
        b = boxes[i]
        cx, cy = (b[0] + b[2]) / 2 / W, (b[1] + b[3]) / 2 / H
        if k == 0:
            parts.append(f"a {names[i]} at the {position_words(cx, cy)}")
        else:
            p = boxes[order[k - 1]]
            side = "right" if cx > (p[0] + p[2]) / 2 / W else "left"
            parts.append(f"a {names[i]} to its {side}")
    return ", then ".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenes", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dev", type=int, default=80, help="scenes of the development set (bench/devset.py)")
    ap.add_argument("--dev2", type=int, default=40,
                    help="scenes of the development set's second part (the held-out part until it was looked at)")
    ap.add_argument("--dev3", type=int, default=40,
                    help="scenes of the development set's third part (photographed backgrounds)")
    ap.add_argument("--dump", default="", help="write each development scene, its trace drawn, to this folder")
    ap.add_argument("--held-out", type=int, default=40,
                    help="scenes of the held-out part v2 (figures only: not looked at while tuning)")
    ap.add_argument("--photos", type=int, default=60,
                    help="traces over whole real photos with hand-labelled boxes (bench/photoset.py)")
    ap.add_argument("--photos2", type=int, default=0,
                    help="traces over the second photo part (bench/photoset.py PHOTOS2, from mate-backgrounds)")
    ap.add_argument("--animals", type=int, default=0,
                    help="traces over the development photos of animals and people (bench/animals.py)")
    ap.add_argument("--animals-held", type=int, default=0,
                    help="traces over bench/animals.py's held-out photos (figures only: run at the start and the end)")
    ap.add_argument("--only-dev", action="store_true", help="skip the original scenes")
    ap.add_argument("--lift-gap", type=float, nargs=2, metavar=("LO", "HI"),
                    help="seconds the pen is lifted between things in lift and multi traces "
                         "(default: bench/devset.py's LIFT_GAP, 0.8-1.5)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    if args.lift_gap:
        import devset

        devset.LIFT_GAP = tuple(args.lift_gap)
    import torch

    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    crops = object_crops()
    rows = []
    while len(rows) < (0 if args.only_dev else args.scenes):
        scene = make_scene(rng, crops)
        if scene is None:
            continue
        img, names, boxes = scene
        order = [int(i) for i in rng.permutation(len(names))]
        norm = [(b[0] / W, b[1] / H, b[2] / W, b[3] / H) for b in boxes]
        true_seq = [norm[i] for i in order]
        true_labels = [names[i] for i in order]
        dets = detect_objects(img, min_score=0.35)
        recall = np.mean([any(d.label == names[i] and _iou(d.box, boxes[i]) >= 0.5 for d in dets)
                          for i in range(len(names))])
        lift = bool(rng.random() < 0.5)
        trace = to_ln(human_trace(rng, true_seq, lift))
        t = time.perf_counter()
        cap = caption_trace(img, trace)
        t_cap = time.perf_counter() - t
        seg_labels = [s.label for s in cap.segments if s.kind == "object"]
        text_labels = [p.label for p in parse_phrases(cap.text) if p.kind == "object"]
        ok = seg_labels == true_labels and text_labels == true_labels
        ref = reference_caption(names, boxes, order)
        t = time.perf_counter()
        loc = locate(img, ref)
        t_loc = time.perf_counter() - t
        pred = [(b[0] / W, b[1] / H, b[2] / W, b[3] / H) for b in loc.found_boxes] or [(0, 0, 1, 1)]
        loc2 = locate(img, cap.text)
        pred2 = [(b[0] / W, b[1] / H, b[2] / W, b[3] / H) for b in loc2.found_boxes] or [(0, 0, 1, 1)]
        centre = [(1 / 3, 1 / 3, 2 / 3, 2 / 3)] * len(true_seq)
        rows.append({
            "ok": ok, "recall": recall, "lift": lift, "twins": len(set(names)) < len(names), "t_cap": t_cap, "t_loc": t_loc,
            "lbm0": lbm(pred, true_seq, 0), "lbm1": lbm(pred, true_seq, 1),
            "cyc0": lbm(pred2, true_seq, 0), "cyc1": lbm(pred2, true_seq, 1),
            "base0": lbm(centre, true_seq, 0), "base1": lbm(centre, true_seq, 1),
        })
        if args.verbose or not ok:
            print(f"scene {len(rows):3d} {'ok ' if ok else 'BAD'} traced={true_labels} "
                  f"caption={cap.text!r}")
            if args.verbose:
                print(f"          locate({ref!r}) LBM0={rows[-1]['lbm0']:.3f}")

    def m(key):
        return float(np.mean([r[key] for r in rows]))

    if args.only_dev:
        rows = []
    if rows:
        _report(rows)
    if args.dev:
        dev_set(args.dev, args.seed, args.verbose, dump=args.dump)
    if args.dev2:
        dev_set(args.dev2, args.seed + 5000, args.verbose, part="dev2", dump=args.dump)
    if args.dev3:
        dev_set(args.dev3, args.seed + 7000, args.verbose, part="dev3", dump=args.dump)
    if args.photos:
        photo_set(args.photos, args.seed + 7000, args.verbose)
    if args.photos2:
        import photoset

        if photoset.photos2_present():
            photo_set(args.photos2, args.seed + 8000, args.verbose, photoset.PHOTOS2, "photos2")
        else:
            print(f"photos2: skipped, {photoset.MATE_DIR} is missing (apt-get install mate-backgrounds)")
    if args.animals:
        animal_set(args.animals, args.seed + 10000, "dev", args.verbose)
    if args.animals_held:
        animal_set(args.animals_held, args.seed + 11000, "held")
    if args.held_out:
        dev_set(args.held_out, args.seed + 9000, part="v2")
    return 0


def _report(rows: list[dict]) -> None:
    def m(key):
        return float(np.mean([r[key] for r in rows]))

    print()
    print(f"{'scenes':<46}{len(rows):>10d}")
    print(f"{'detector recall of pasted objects (whole image)':<46}{m('recall'):>10.3f}")
    print(f"{'caption names traced objects in trace order':<46}{m('ok'):>10.3f}")
    for key, name in (("lift", "pen lifted between objects"), ("twins", "two objects of one class")):
        sub = [r["ok"] for r in rows if r[key]]
        if sub:
            print(f"{'  scenes with ' + name:<46}{np.mean(sub):>10.3f}  (n={len(sub)})")
    print(f"{'caption latency, mean s':<46}{m('t_cap'):>10.3f}")
    print(f"{'locate(reference caption) LBM(k=0)':<46}{m('lbm0'):>10.4f}")
    print(f"{'locate(reference caption) LBM(k=1)':<46}{m('lbm1'):>10.4f}")
    print(f"{'locate(our caption) LBM(k=0)':<46}{m('cyc0'):>10.4f}")
    print(f"{'locate(our caption) LBM(k=1)':<46}{m('cyc1'):>10.4f}")
    print(f"{'baseline: centre box, LBM(k=0)':<46}{m('base0'):>10.4f}")
    print(f"{'baseline: centre box, LBM(k=1)':<46}{m('base1'):>10.4f}")
    print(f"{'locate LBM(k=0) / baseline':<46}{m('lbm0') / m('base0'):>10.3f}")
    print(f"{'locate latency, mean s':<46}{m('t_loc'):>10.3f}")


SKIN = {"beige", "pink", "brown"}
# Words that name no particular thing: a caption may always fall back on them ("a brown object",
# "the grass"); any other noun that is not the truth's is a wrong name.
GENERIC = {"object", "area", "thing", "sky", "grass", "ground", "wall", "floor", "gravel", "sand", "earth"}


def _generic(label: str) -> bool:
    return label in GENERIC or label.endswith(" area")


def wrong_nouns(targets, segments) -> list[tuple[str, str]]:
    """``(truth, said)`` for each traced thing that a caption segment on it names with a noun that
    is neither the truth's nor generic. Each segment belongs to the traced thing most of its box
    lies on (at least a fifth of the smaller box), so a thing said twice ("back to" or split) is
    judged by every name it got. A kind word the truth is ("an animal" for a horse) is not wrong."""
    import photoset

    def share(a, b):
        ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
        iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
        small = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
        return ix * iy / max(1, small)

    wrong: dict[int, str] = {}
    for sg in segments:
        k = max(range(len(targets)), key=lambda i: share(sg.box, targets[i][1]), default=None)
        if k is None or share(sg.box, targets[k][1]) < 0.2:
            continue
        if sg.label != targets[k][0] and not _generic(sg.label) and not photoset.kind_of(targets[k][0], sg.label):
            wrong.setdefault(k, sg.label)
    return [(targets[k][0], said) for k, said in sorted(wrong.items())]


def _said(want: str, seg, thing, part: str) -> str:
    """What a caption segment is taken to say of a traced thing: its label, except that on the
    photographed backgrounds of dev part 3 a region dwell described as any region but the sky is
    said right (trees may be "the grass", a table "a brown area")."""
    if part == "dev3" and thing is None and seg.kind == "region" and seg.label != "sky":
        return want
    return seg.label


def _draw_scene(path: str, img: np.ndarray, strokes, cap) -> None:
    out = np.ascontiguousarray(img[:, :, ::-1])
    for s in strokes:
        pts = np.round(s[:, :2] * (W, H)).astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], False, (0, 255, 255), 2, cv2.LINE_AA)
    for sg in cap.segments:
        cv2.rectangle(out, sg.box[:2], sg.box[2:], (255, 0, 255), 1)
        cv2.putText(out, sg.label, (sg.box[0] + 2, sg.box[1] + 14), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 0, 255), 1)
    cv2.imwrite(path, out)


def dev_set(n: int, seed: int, verbose: bool = False, part: str = "dev1", dump: str = "") -> None:
    """The development set: multi-stroke, lingering and region traces, a non-COCO object, persons
    with known clothing colours (bench/devset.py); ``part`` "dev1", "dev2" (its second part, once
    held out), "dev3" (its third part, on photographed backgrounds) or "v2" (the held-out part v2,
    whose scenes are never printed nor drawn)."""
    import devset

    rng = np.random.default_rng(seed + 1000)
    pool = {"dev1": devset.things, "dev2": devset.held_out_things, "dev3": devset.dev3_things,
            "v2": devset.held_out_v2_things}[part]()
    held_out = part == "v2"
    t_caps = []
    non_coco = {t.label for t in pool if not t.coco}
    rows = []
    while len(rows) < n:
        kind = devset.KINDS[len(rows) % len(devset.KINDS)]
        scene = devset.make_scene(rng, pool, kind, held_out=part == "dev2", part=part)
        if scene is None:
            continue
        img, targets, strokes = scene
        t = time.perf_counter()
        cap = caption_trace(img, to_ln(strokes))
        t_caps.append(time.perf_counter() - t)
        want = [lab for lab, _, _ in targets]
        got = [s.label for s in cap.segments]
        if part == "dev3":
            got = [_said(lab, sg, th, part) for (lab, _, th), sg in zip(targets, cap.segments)] + got[len(targets):]
        ok = got == want
        if dump and not held_out:
            import os

            os.makedirs(dump, exist_ok=True)
            _draw_scene(os.path.join(dump, f"{part}_{len(rows) + 1:03d}.png"), img, strokes, cap)
        persons = skin = clothed = 0
        for lab, box, thing in targets:
            if lab != "person":
                continue
            persons += 1
            seg = max(cap.segments, key=lambda sg: _iou(sg.box, box), default=None)
            if seg is None or _iou(seg.box, box) < 0.3:
                continue
            words = set(seg.words.replace(";", " ").split())
            skin += bool(words & SKIN) and thing.clothing not in words
            clothed += thing.clothing in words
        rocket = [lab == "rocket" for lab, _, _ in targets]
        wrong = wrong_nouns(targets, cap.segments)
        rows.append({"kind": kind, "ok": ok, "wrong": len(wrong), "things": len(targets), "persons": persons, "skin": skin, "clothed": clothed,
                     "rocket": any(rocket), "rocket_ok": any(rocket) and "rocket" in got,
                     "coco_ok": [w for w in want if w not in non_coco] == [g for g in got if g not in non_coco],
                     "back": "back to" in cap.text})
        if (verbose or not ok) and not held_out:
            print(f"{part} {len(rows):3d} {kind:6s} {'ok ' if ok else 'BAD'} traced={want} caption={cap.text!r}"
                  + (f" WRONG NOUN {wrong}" if wrong else ""))
    print()
    title = {"dev1": "development set scenes", "dev2": "development set part 2 scenes",
             "dev3": "development set part 3 scenes",
             "v2": "held-out part v2 scenes"}[part]
    _named_right(title, rows, devset.KINDS)
    print(f"{'  COCO things right and in order':<46}{np.mean([r['coco_ok'] for r in rows]):>10.3f}")
    _wrong(rows)
    rk = [r["rocket_ok"] for r in rows if r["rocket"]]
    print(f"{'rocket (not in COCO) named a rocket':<46}{np.mean(rk) if rk else float('nan'):>10.3f}  (n={len(rk)})")
    npers = sum(r["persons"] for r in rows)
    print(f"{'persons described by a skin colour':<46}{sum(r['skin'] for r in rows):>6d}/{npers}")
    print(f"{'persons described by their clothes colour':<46}{sum(r['clothed'] for r in rows):>6d}/{npers}")
    print(f"{'captions with back-to loops':<46}{sum(r['back'] for r in rows):>6d}/{len(rows)}")
    print(f"{'caption latency, mean s':<46}{np.mean(t_caps):>10.3f}")


def _named_right(title: str, rows: list[dict], kinds) -> None:
    print(f"{title:<46}{len(rows):>10d}")
    print(f"{'traced things named right, once, in order':<46}{np.mean([r['ok'] for r in rows]):>10.3f}")
    for kind in kinds:
        sub = [r["ok"] for r in rows if r["kind"] == kind]
        print(f"{'  ' + kind + ' traces':<46}{np.mean(sub):>10.3f}  (n={len(sub)})")


def _wrong(rows: list[dict]) -> None:
    print(f"{'traced things given a wrong noun':<46}{sum(r['wrong'] for r in rows):>6d}/{sum(r['things'] for r in rows)}")
    print(f"{'captions with a wrong noun':<46}{sum(r['wrong'] > 0 for r in rows):>6d}/{len(rows)}")


def photo_set(n: int, seed: int, verbose: bool = False, photos=None, title: str = "photos") -> None:
    """Traces over whole real photos (bench/photoset.py), printed trace by trace like dev part 1,
    with the same figures: named right, once, in order per kind; wrong nouns; persons by skin or
    by clothes; latency."""
    import photoset

    rows, t_caps = [], []
    said = {"accepted word": 0, "a colour area": 0, "an object or a noun": 0, "not said": 0}
    for i, (name, kind, img, targets, strokes) in enumerate(photoset.traces(n, seed, photos)):
        t = time.perf_counter()
        cap = caption_trace(img, to_ln(strokes))
        t_caps.append(time.perf_counter() - t)
        ok = photoset.named_right(targets, cap.segments)
        wrong = photoset.wrong_nouns(targets, cap.segments, (img.shape[1], img.shape[0]))
        persons = skin = clothed = 0
        for lab in targets:
            if not lab.clothing:
                continue
            persons += 1
            seg = max(cap.segments, key=lambda sg: _iou(sg.box, lab.box), default=None)
            if seg is None or _iou(seg.box, lab.box) < 0.3:
                continue
            words = set(seg.words.replace(";", " ").split())
            skin += bool(words & SKIN) and not words & lab.clothing
            clothed += bool(words & lab.clothing)
        on = photoset.assign(targets, cap.segments, (img.shape[1], img.shape[0]))
        for k, lab in enumerate(targets):
            if lab.region:
                sg = next((sg for sg, j in zip(cap.segments, on) if j == k), None)
                said["not said" if sg is None else "accepted word" if photoset.accepted(sg.label, lab)
                     else "a colour area" if sg.kind == "region" and sg.label.endswith(" area")
                     else "an object or a noun"] += 1
        rows.append({"kind": kind, "ok": ok, "wrong": len(wrong), "things": len(targets),
                     "covered": photoset.covered(targets, cap.segments, (img.shape[1], img.shape[0])),
                     "persons": persons, "skin": skin, "clothed": clothed})
        if verbose or not ok:
            print(f"{title} {i + 1:3d} {kind:6s} {'ok ' if ok else 'BAD'} {name:14s} "
                  f"traced={[t.name for t in targets]} caption={cap.text!r}"
                  + (f" WRONG NOUN {wrong}" if wrong else ""))
    print()
    _named_right(f"real photo traces ({title})", rows, photoset.KINDS)
    _wrong(rows)
    print(f"{'traced things with a clause of their own':<46}"
          f"{sum(r['covered'] for r in rows):>6d}/{sum(r['things'] for r in rows)}")
    print(f"{'region dwells, said':<46}{sum(said.values()):>10d}")
    for how, c in said.items():
        print(f"{'  ' + how:<46}{c:>10d}")
    npers = sum(r["persons"] for r in rows)
    print(f"{'persons described by a skin colour':<46}{sum(r['skin'] for r in rows):>6d}/{npers}")
    print(f"{'persons described by their clothes colour':<46}{sum(r['clothed'] for r in rows):>6d}/{npers}")
    print(f"{'caption latency, mean s':<46}{np.mean(t_caps):>10.3f}")


def animal_set(n: int, seed: int, part: str, verbose: bool = False) -> None:
    """Traces over bench/animals.py's photos of animals and people (``part`` "dev" or "held"; the
    held-out part prints figures only): named right, once, in order; each traced thing named right,
    with a kind word, generically, wrongly or not at all; wrong nouns; latency."""
    import animals

    rows, t_caps = [], []
    hows = {"right": 0, "kind": 0, "generic": 0, "wrong": 0, "unsaid": 0}
    for i, (name, kind, img, targets, strokes) in enumerate(animals.traces(n, seed, animals.split(part))):
        t = time.perf_counter()
        cap = caption_trace(img, to_ln(strokes))
        t_caps.append(time.perf_counter() - t)
        size = (img.shape[1], img.shape[0])
        ok = animals.named_right(targets, cap.segments)
        judged = animals.judge(targets, cap.segments, size)
        for how in judged:
            hows[how] += 1
        rows.append({"kind": kind, "ok": ok, "wrong": judged.count("wrong"), "things": len(targets)})
        if verbose and part == "dev":
            said = [f"{t.name}:{how}" for t, how in zip(targets, judged)]
            print(f"animals {i + 1:3d} {kind:6s} {'ok ' if ok else 'BAD'} {name.split('/')[-1]:22s} {said} "
                  f"said={[animals.said_noun(s) for s in cap.segments]} caption={cap.text!r}")
    print()
    _named_right(f"animal and people photo traces ({part})", rows, animals.KINDS)
    things = sum(hows.values())
    for how, text in (("right", "named right"), ("kind", "named with a kind word"),
                      ("generic", "named generically (an object)"), ("wrong", "given a wrong noun"),
                      ("unsaid", "without a segment of their own")):
        print(f"{'traced things ' + text:<46}{hows[how]:>6d}/{things}")
    print(f"{'captions with a wrong noun':<46}{sum(r['wrong'] > 0 for r in rows):>6d}/{len(rows)}")
    print(f"{'caption latency, mean s':<46}{np.mean(t_caps):>10.3f}")


if __name__ == "__main__":
    sys.exit(main())
