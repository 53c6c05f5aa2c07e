"""Train and evaluate the relational speaker (agent/learned/speaker.py) on synthesised edit pairs.

    python -m training train-speaker [--train 1600] [--val 240] [--epochs 20] [--out resources/speaker]
    python -m training evaluate-speaker [--checkpoint resources/speaker/speaker.safetensors]

1. Pairs: training/speaker_data.py edits base photos with our operations and object edits; the
   target is one of three instruction phrasings of the truth. The held-out split uses base photos
   never seen in training (``VAL_BASES``), so the scores measure generalisation to new pictures.
2. Features: EfficientNet-Lite0 feature maps of both images, computed once and cached (float16) in
   ``--cache`` (default ``~/.cache/easel/speaker``): the training loop never runs the CNN.
3. Training: AdamW, teacher forcing, every reference of a pair used as a target; the checkpoint
   with the best held-out loss is kept (safetensors, config and vocabulary in its metadata).
4. Evaluation: greedy sentences on the held-out split scored with BLEU-4, METEOR, ROUGE-L and CIDEr
   (pycocoevalcap) against the three references, beside a baseline that always says the most
   frequent training instruction.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections import Counter
from pathlib import Path

import torch

from agent.learned.speaker import (
    BOS,
    EOS,
    PAD,
    UNK,
    RelationalSpeaker,
    SpeakerConfig,
    image_features,
    save_speaker,
)
from training.metrics import caption_scores
from training.speaker_data import instructions, load_bases, make_pairs

VAL_BASES = ("coffee", "clock")
ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "resources" / "speaker"
DEFAULT_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "easel" / "speaker"


def build_split(names: list[str], n: int, seed: int, cache: Path, tag: str) -> dict:
    """Pairs over the given bases with cached features: {"fb","fa" (N,49,1280) f16, "refs"}."""
    path = cache / f"{tag}-{'-'.join(names)}-{n}-{seed}.pt"
    if path.is_file():
        return torch.load(path, weights_only=True)
    all_bases = load_bases()
    bases = {k: all_bases[k] for k in names}
    base_feat = {}
    fb, fa, refs = [], [], []
    t0 = time.time()
    batch_after, batch_before = [], []

    def flush():
        if batch_after:
            fa.append(image_features(batch_after).half())
            fb.append(torch.stack([base_feat[k] for k in batch_before]))
            batch_after.clear()
            batch_before.clear()

    for i, (base, _spec, before, after, truth) in enumerate(make_pairs(n, seed, bases)):
        if base not in base_feat:
            base_feat[base] = image_features([before])[0].half()
        batch_after.append(after)
        batch_before.append(base)
        refs.append(instructions(truth, before.shape[1::-1], after.shape[1::-1]))
        if len(batch_after) == 16:
            flush()
        if i % 200 == 0:
            print(f"  {tag}: {i} pairs, {time.time() - t0:.0f} s", flush=True)
    flush()
    data = {"fb": torch.cat(fb), "fa": torch.cat(fa), "refs": refs}
    cache.mkdir(parents=True, exist_ok=True)
    torch.save(data, path)
    return data


def make_vocab(refs: list[list[str]], min_count: int = 1) -> list[str]:
    counts = Counter(w for rs in refs for r in rs for w in r.split())
    return [PAD, BOS, EOS, UNK] + sorted(w for w, c in counts.items() if c >= min_count)


def encode_targets(model: RelationalSpeaker, refs: list[list[str]]) -> tuple[torch.Tensor, torch.Tensor]:
    """(pair index, tokens padded to max_len) for every reference."""
    idx, rows = [], []
    for i, rs in enumerate(refs):
        for r in rs:
            t = model.tokenize(r)
            rows.append(t + [0] * (model.cfg.max_len - len(t)))
            idx.append(i)
    return torch.tensor(idx), torch.tensor(rows)


def evaluate(model: RelationalSpeaker, data: dict, batch: int = 64) -> tuple[dict, list[str]]:
    hyps = []
    for s in range(0, len(data["refs"]), batch):
        hyps += model.generate(data["fb"][s:s + batch].float(), data["fa"][s:s + batch].float())
    return caption_scores(data["refs"], hyps), hyps


def add_args(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--train", type=int, default=1600, help="training pairs")
    ap.add_argument("--val", type=int, default=240, help="held-out pairs")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="where CNN features are cached")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder for the checkpoint and report")


def main(args: argparse.Namespace) -> int:
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    t_start = time.time()

    train_names = [k for k in load_bases() if k not in VAL_BASES]
    print(f"train bases: {', '.join(train_names)}; held-out bases: {', '.join(VAL_BASES)}", flush=True)
    train = build_split(train_names, args.train, args.seed, args.cache, "train")
    val = build_split(list(VAL_BASES), args.val, args.seed + 1000, args.cache, "val")
    print(f"features ready: {len(train['refs'])} train, {len(val['refs'])} held-out pairs, "
          f"{time.time() - t_start:.0f} s", flush=True)

    cfg = SpeakerConfig(vocab=make_vocab(train["refs"]))
    model = RelationalSpeaker(cfg)
    n_params = sum(p.numel() for p in model.parameters())
    print(f"model: {n_params / 1e6:.2f} M parameters, vocabulary {len(cfg.vocab)}", flush=True)
    sample = torch.cat([train["fb"][::7], train["fa"][::3]]).reshape(-1, cfg.feat_dim)
    model.set_pca(sample)
    ti, tt = encode_targets(model, train["refs"])
    vi, vt = encode_targets(model, val["refs"])
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    n_pairs = len(train["refs"])
    steps = args.epochs * ((n_pairs + args.batch - 1) // args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps, pct_start=0.1)
    best, best_state = float("inf"), None
    for epoch in range(args.epochs):
        model.train()
        # One of each pair's references per epoch (they take turns), in random order.
        n_ref = len(ti) // n_pairs
        pick = torch.arange(n_pairs) * n_ref + torch.randint(0, n_ref, (n_pairs,))
        perm = pick[torch.randperm(n_pairs)]
        total = 0.0
        for s in range(0, len(perm), args.batch):
            b = perm[s:s + args.batch]
            pairs, toks = ti[b], tt[b]
            _, loss = model((train["fb"][pairs].float(), train["fa"][pairs].float(), toks[:, :-1]), toks[:, 1:])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            total += loss.item() * len(b)
        model.eval()
        with torch.no_grad():
            vl = 0.0
            for s in range(0, len(vi), 256):
                pairs, toks = vi[s:s + 256], vt[s:s + 256]
                _, loss = model((val["fb"][pairs].float(), val["fa"][pairs].float(), toks[:, :-1]), toks[:, 1:])
                vl += loss.item() * len(pairs)
        vl /= len(vi)
        if vl < best:
            best, best_state = vl, {k: v.clone() for k, v in model.state_dict().items()}
        print(f"epoch {epoch + 1:3d}  train loss {total / len(perm):.3f}  held-out loss {vl:.3f}  "
              f"{time.time() - t_start:.0f} s", flush=True)
    model.load_state_dict(best_state)
    scores, hyps = evaluate(model, val)
    common = Counter(r[0] for r in train["refs"]).most_common(1)[0][0]
    base_scores = caption_scores(val["refs"], [common] * len(val["refs"]))
    report = {"held_out": scores, "baseline_most_frequent": base_scores, "baseline_sentence": common,
              "train_pairs": len(train["refs"]), "held_out_pairs": len(val["refs"]),
              "val_bases": list(VAL_BASES), "best_held_out_loss": round(best, 4),
              "epochs": args.epochs, "minutes": round((time.time() - t_start) / 60, 1),
              "examples": [{"refs": val["refs"][i], "said": hyps[i]} for i in range(0, len(hyps), 37)]}
    args.out.mkdir(parents=True, exist_ok=True)
    save_speaker(model, args.out / "speaker.safetensors", extra={k: report[k] for k in ("held_out", "val_bases")})
    (args.out / "report.json").write_text(json.dumps(report, indent=2))
    _print_scores(report)
    return 0


def _print_scores(report: dict) -> None:
    print(f"\nheld-out pairs: {report['held_out_pairs']} (bases {', '.join(report['val_bases'])})")
    print(f"{'':28s} {'BLEU-4':>7s} {'METEOR':>7s} {'ROUGE-L':>8s} {'CIDEr':>7s}")
    for name, key in (("relational speaker", "held_out"), ("most frequent sentence", "baseline_most_frequent")):
        s = report[key]
        met = f"{s['METEOR']:.3f}" if s.get("METEOR") is not None else "n/a"
        print(f"{name:28s} {s['BLEU-4']:7.3f} {met:>7s} {s['ROUGE-L']:8.3f} {s['CIDEr']:7.3f}")
    for ex in report.get("examples", [])[:6]:
        print(f"  said: {ex['said']!r}   refs: {ex['refs'][0]!r}")


def add_evaluate_args(ap: argparse.ArgumentParser) -> None:
    from agent.learned.speaker import DEFAULT_CHECKPOINT

    ap.add_argument("--checkpoint", type=Path, default=DEFAULT_CHECKPOINT)
    ap.add_argument("--val", type=int, default=240)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)


def evaluate_main(args: argparse.Namespace) -> int:
    from agent.learned.speaker import load_speaker

    torch.set_num_threads(1)
    model = load_speaker(args.checkpoint)
    val = build_split(list(VAL_BASES), args.val, args.seed + 1000, args.cache, "val")
    scores, hyps = evaluate(model, val)
    common_path = args.checkpoint.parent / "report.json"
    report = {"held_out": scores, "held_out_pairs": len(hyps), "val_bases": list(VAL_BASES),
              "examples": [{"refs": val["refs"][i], "said": hyps[i]} for i in range(0, len(hyps), 37)]}
    if common_path.is_file():
        old = json.loads(common_path.read_text())
        common = old.get("baseline_sentence")
        if common:
            report["baseline_most_frequent"] = caption_scores(val["refs"], [common] * len(hyps))
    if "baseline_most_frequent" not in report:
        report["baseline_most_frequent"] = {k: float("nan") for k in scores}
    _print_scores(report)
    return 0


if __name__ == "__main__":
    _ap = argparse.ArgumentParser(prog="python -m training.train_speaker", description=__doc__,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    add_args(_ap)
    raise SystemExit(main(_ap.parse_args()))
