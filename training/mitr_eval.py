"""Evaluate a MITR checkpoint on Localized Narratives JSONL plus region features.

Controlled caption generation (true trace in, caption out) is scored with BLEU-1..4, METEOR,
ROUGE-L and CIDEr against the true caption; controlled trace generation (true caption in, boxes
out) with LBM(k=0) and LBM(k=1) against the true trace's boxes (see training/metrics_lbm.py).

    python -m training evaluate-mitr --checkpoint mitr.safetensors --data VALID.jsonl \
        --features VFEATS.npz [--limit 500] [--no-meteor] [--json]
"""

from __future__ import annotations

import argparse
import json

import numpy as np
import torch

from agent.learned.mitr import load
from training.caption_metrics import caption_scores
from training.metrics_lbm import lbm
from training.mitr_data import load_features, load_ln_jsonl, make_batch


def evaluate(checkpoint: str, data: str, features: str, *, limit: int | None = None, batch_size: int = 32,
             meteor: bool = True, examples_out: int = 3) -> dict:
    model, vocab, extra = load(checkpoint)
    cfg = model.config
    window = float(extra.get("window", 1.0))
    exs, bad = load_ln_jsonl(data, window=window, max_boxes=cfg.max_boxes)
    feats = load_features(features)
    exs = [e for e in exs if e.image_id in feats][:limit]
    if not exs:
        raise SystemExit("no examples with features to evaluate")
    fdim = next(iter(feats.values()))[0].shape[1]
    if fdim != cfg.feat_dim:
        raise SystemExit(f"features have {fdim} dimensions; the model was trained on {cfg.feat_dim}")
    refs, preds, lbm0, lbm1, base0, shown = {}, {}, [], [], [], []
    for i in range(0, len(exs), batch_size):
        chunk = exs[i:i + batch_size]
        b = make_batch(chunk, feats, vocab, cfg.max_words, cfg.max_regions)
        words = model.generate_caption(b["feats"], b["feat_boxes"], b["feat_mask"], b["boxes"], b["box_mask"])
        boxes = model.generate_trace(b["feats"], b["feat_boxes"], b["feat_mask"], b["words"])
        for j, e in enumerate(chunk):
            key = f"{i + j}"
            refs[key] = [e.caption]
            preds[key] = vocab.decode(words[j].tolist())
            pb = boxes[j].numpy().astype(np.float64)
            lbm0.append(lbm(pb, e.boxes, 0))
            lbm1.append(lbm(pb, e.boxes, 1))
            base0.append(lbm([(0.25, 0.25, 0.75, 0.75)], e.boxes, 0))
            if len(shown) < examples_out:
                shown.append({"true": e.caption, "predicted": preds[key],
                              "true_boxes": len(e.boxes), "predicted_boxes": len(pb)})
    scores = caption_scores(refs, preds, meteor=meteor)
    scores.update({"LBM(k=0)": float(np.mean(lbm0)), "LBM(k=1)": float(np.mean(lbm1)),
                   "LBM(k=0) centre-box baseline": float(np.mean(base0)), "n": len(exs),
                   "bad_lines": bad, "examples": shown})
    return scores


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training evaluate-mitr", description=__doc__.split("\n\n")[0])
    p.add_argument("--checkpoint", required=True)
    p.add_argument("--data", required=True, help="Localized Narratives JSONL")
    p.add_argument("--features", required=True, help=".npz/.safetensors region features")
    p.add_argument("--limit", type=int)
    p.add_argument("--no-meteor", action="store_true", help="skip METEOR (needs java)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--threads", type=int, default=1)
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    s = evaluate(args.checkpoint, args.data, args.features, limit=args.limit, meteor=not args.no_meteor)
    if args.json:
        print(json.dumps(s))
        return 0
    for k, v in s.items():
        if k != "examples":
            print(f"{k:<30} {v if v is None or isinstance(v, int) else f'{v:.4f}'}")
    for ex in s["examples"]:
        print(f"  true: {ex['true']}\n  pred: {ex['predicted']}")
    return 0
