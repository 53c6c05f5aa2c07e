"""Train MITR on Localized Narratives JSONL plus region features; reads top to bottom.

    python -m training train-mitr --train TRAIN.jsonl --features FEATS.npz \
        [--valid VALID.jsonl --valid-features VFEATS.npz] --out mitr.safetensors [--steps 2000]
    python -m training train-mitr --synthetic DIR --out mitr.safetensors      # toy data, a smoke run

The vocabulary is built from the training captions and saved in the checkpoint with the config.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np
import torch

from agent.learned.mitr import MITR, MITRConfig, Vocab, save
from training.mitr_data import load_features, load_ln_jsonl, make_batch, synthetic_set


def add_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--train", help="Localized Narratives JSONL for training")
    p.add_argument("--features", help="region features of the training images (.npz/.safetensors)")
    p.add_argument("--valid", help="Localized Narratives JSONL for validation")
    p.add_argument("--valid-features", help="region features of the validation images")
    p.add_argument("--synthetic", metavar="DIR", help="write and use a tiny synthetic set in DIR")
    p.add_argument("--synthetic-size", type=int, default=256, help="training images of the synthetic set")
    p.add_argument("--out", required=True, help="checkpoint to write (.safetensors)")
    p.add_argument("--steps", type=int, default=2000)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--window", type=float, default=1.0, help="seconds of trace per box")
    p.add_argument("--d-model", type=int, default=256)
    p.add_argument("--layers", type=int, default=2, help="encoder and decoder layers (each)")
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--max-words", type=int, default=64)
    p.add_argument("--max-boxes", type=int, default=48)
    p.add_argument("--min-count", type=int, default=2, help="rarer words become <unk>")
    p.add_argument("--cycle-weight", type=float, default=0.1)
    p.add_argument("--dropout", type=float, default=0.1)
    p.add_argument("--eval-every", type=int, default=500)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1)


def _data(args):
    if args.synthetic:
        n = args.synthetic_size
        tr_jsonl, tr_feats = synthetic_set(args.synthetic, n, seed=args.seed, split="train")
        va_jsonl, va_feats = synthetic_set(args.synthetic, max(8, n // 4), seed=args.seed + 1, split="valid")
    else:
        if not (args.train and args.features):
            raise SystemExit("train-mitr needs --train and --features (or --synthetic DIR)")
        tr_jsonl, tr_feats = args.train, args.features
        va_jsonl, va_feats = args.valid, args.valid_features or args.features
    train, bad = load_ln_jsonl(tr_jsonl, window=args.window, max_boxes=args.max_boxes)
    feats = load_features(tr_feats)
    missing = sum(e.image_id not in feats for e in train)
    train = [e for e in train if e.image_id in feats]
    print(f"train: {len(train)} examples ({bad} bad lines, {missing} without features)")
    valid, vfeats = [], {}
    if va_jsonl:
        valid, vbad = load_ln_jsonl(va_jsonl, window=args.window, max_boxes=args.max_boxes)
        vfeats = load_features(va_feats)
        valid = [e for e in valid if e.image_id in vfeats]
        print(f"valid: {len(valid)} examples ({vbad} bad lines)")
    if not train:
        raise SystemExit("no training examples with features")
    return train, feats, valid, vfeats


@torch.no_grad()
def valid_loss(model, valid, vfeats, vocab, config, batch_size) -> float:
    model.eval()
    losses = []
    for i in range(0, len(valid), batch_size):
        batch = make_batch(valid[i:i + batch_size], vfeats, vocab, config.max_words, config.max_regions)
        _, loss = model(batch, targets=True)
        losses.append(float(loss))
    model.train()
    return float(np.mean(losses)) if losses else math.nan


def train(args) -> dict:
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    train_set, feats, valid, vfeats = _data(args)
    vocab = Vocab.build((e.caption for e in train_set), min_count=args.min_count)
    fdim = next(iter(feats.values()))[0].shape[1]
    max_regions = max(len(f) for f, _ in feats.values())
    config = MITRConfig(vocab_size=len(vocab), feat_dim=fdim, d_model=args.d_model, n_heads=args.heads,
                        n_enc=args.layers, n_dec=args.layers, d_ff=2 * args.d_model, dropout=args.dropout,
                        max_words=args.max_words, max_boxes=args.max_boxes,
                        max_regions=max(1, min(max_regions, 100)), cycle_weight=args.cycle_weight)
    model = MITR(config)
    n_params = sum(p.numel() for p in model.parameters())
    print(f"MITR {n_params / 1e6:.2f} M parameters, vocab {len(vocab)}, features {fdim}")
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    warmup = max(1, args.steps // 20)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, (s + 1) / warmup) * 0.5 * (1 + math.cos(math.pi * min(1.0, s / args.steps))))
    history = []
    best = math.inf
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.train()
    t0 = time.time()
    for step in range(1, args.steps + 1):
        batch = make_batch(random.sample(train_set, min(args.batch_size, len(train_set))), feats, vocab,
                           config.max_words, config.max_regions)
        _, loss = model(batch, targets=True)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        history.append(float(loss.detach()))
        if step % args.eval_every == 0 or step == args.steps:
            parts = " ".join(f"{k}={v:.3f}" for k, v in model.last_losses.items())
            vl = valid_loss(model, valid, vfeats, vocab, config, args.batch_size) if valid else math.nan
            print(f"step {step} loss {np.mean(history[-args.eval_every:]):.4f} ({parts}) "
                  f"valid {vl:.4f} {time.time() - t0:.0f}s", flush=True)
            score = vl if valid else float(np.mean(history[-args.eval_every:]))
            if score < best:
                best = score
                save(model, vocab, out, extra={"step": step, "valid_loss": vl, "window": args.window,
                                               "args": {k: v for k, v in vars(args).items()
                                                        if isinstance(v, (int, float, str, type(None)))}})
    print(f"saved {out} (best {'valid' if valid else 'train'} loss {best:.4f})")
    return {"first_loss": history[0], "last_loss": float(np.mean(history[-10:])), "best": best,
            "config": asdict(config), "valid": bool(valid)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training train-mitr", description=__doc__.split("\n\n")[0])
    add_args(p)
    train(p.parse_args(argv))
    return 0
