"""Train the command model: ``python -m training train-commands [options]``.

Reads top to bottom: data (CAISE train + synthetic dialogues), vocabulary, features, a cache of the
frozen lower encoder layers, then epochs of LoRA + decoder training with model selection on CAISE's
validation split, saving checkpoints (safetensors, config in the metadata) after every epoch.

Runs unchanged under ``torchrun --nproc_per_node N -m training train-commands``: when WORLD_SIZE is
set it joins a process group (gloo on CPU, nccl on GPUs), shards the data with DistributedSampler
and wraps the model in DistributedDataParallel; rank 0 builds the cache, evaluates and writes files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import shutil
import time
from collections import Counter
from dataclasses import asdict
from pathlib import Path

import numpy as np
import torch

from agent.command_model import (
    ARGUMENT_WORDS,
    COMMAND_WORDS,
    DEFAULT_WEIGHTS,
    ENCODER_INPUTS,
    SPECIALS,
    CommandModel,
    CommandModelConfig,
    command_to_tokens,
    decode_batch,
    featurize,
    get_tokenizer,
    is_number,
    make_targets,
    save_checkpoint,
)
from training.commands_data import DATA_DIR, ConceptIndex, Example, accuracy_table, find_concepts, load_caise
from training.synthetic_commands import extension_examples, synthetic_examples

BASE_NUMBERS = [str(n) for n in range(0, 101, 5)] + ["90", "120", "135", "150", "180", "1", "2", "3"] + \
    ["0.1", "0.15", "0.2", "0.25", "0.3", "0.35", "0.4", "0.5", "0.05"]


def add_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", default=str(DATA_DIR), help="folder with md_train.json, md_valid.json, concepts")
    p.add_argument("--out", default="runs/command_model", help="checkpoints, cache and log go here")
    p.add_argument("--ship", action="store_true", help=f"copy the best checkpoint to {DEFAULT_WEIGHTS}")
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--lora-lr", type=float, default=2e-3)
    p.add_argument("--synthetic", type=int, default=2600, help="number of synthetic dialogues")
    p.add_argument("--extensions", type=int, default=600,
                   help="synthetic requests for the operations beyond CAISE's (saturation, remove, ...); "
                        "600 gave the shipped 73.3%% on CAISE validation, 1,200 gave 72.6%%")
    p.add_argument("--seed", type=int, default=1234)
    p.add_argument("--model-seed", type=int, help="seed of the weights and batch order only (default: --seed); "
                   "the synthetic dialogues, vocabulary and cache stay those of --seed, so models trained "
                   "with several model seeds can be ensembled")
    p.add_argument("--limit", type=int, default=0, help="use only this many CAISE train examples (smoke runs)")
    p.add_argument("--valid-limit", type=int, default=0)
    p.add_argument("--lora-r", type=int, default=16)
    p.add_argument("--lora-layers", type=int, default=2, help="LoRA on the top N MiniLM layers (the rest is cached)")
    p.add_argument("--threads", type=int, default=int(os.environ.get("OMP_NUM_THREADS", "1")))
    p.add_argument("--cache", help="lower-layer cache file to use (default: one in --out keyed by the data)")
    p.add_argument("--eval-from", type=int, default=3, help="first epoch to evaluate on validation")
    p.add_argument("--extra", action="append", default=[], metavar="FILE.json",
                   help="more training dialogues in CAISE format (e.g. `python main.py annotate export "
                        "--format caise --concepts`); concepts are read from beside each file; repeatable")
    p.add_argument("--encoder", choices=("minilm", "mpnet"), default="minilm",
                   help="mpnet: all-mpnet-base-v2 from the folder EASEL_MPNET names (experimental)")
    p.add_argument("--concept-form", choices=("words", "phrases"), default="words",
                   help="concepts as distinct words, or as distinct phrases, most frequent first")
    p.add_argument("--concept-pieces", type=int, default=24, help="word pieces of concepts the encoder reads")
    p.add_argument("--min-word-count", type=int, default=2, help="search words this frequent join the vocabulary")


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def build_vocab(examples: list[Example], min_count: int) -> list[str]:
    """SPECIALS, command and argument words, numbers, then frequent target words."""
    counts: Counter = Counter()
    for ex in examples:
        for t in ex.extra["tokens"]:
            counts[t] += 1
    fixed = list(SPECIALS) + [w for w in COMMAND_WORDS if w not in SPECIALS] + list(ARGUMENT_WORDS) + BASE_NUMBERS
    vocab = list(dict.fromkeys(fixed))
    seen = set(vocab)
    for w, c in counts.most_common():
        if c >= min_count and w not in seen and (not is_number(w) or c >= 3):
            vocab.append(w)
            seen.add(w)
    return vocab


def prepare(examples: list[Example], cfg: CommandModelConfig, tok) -> list:
    feats = []
    for ex in examples:
        f = featurize(ex.history, ex.concepts, cfg, tok)
        ex.extra["tokens"] = command_to_tokens(ex.api, f.request)
        feats.append(f)
    return feats


@torch.no_grad()
def bottom_cache(model: CommandModel, feats, path: Path, batch: int = 32) -> list[torch.Tensor]:
    """Frozen lower-layer states of every example (fp16), computed once and kept on disk."""
    if path.exists():
        return torch.load(path, weights_only=True)
    from tqdm import tqdm

    from agent.command_model import collate

    order = sorted(range(len(feats)), key=lambda i: len(feats[i].input_ids))
    out: list[torch.Tensor | None] = [None] * len(feats)
    model.eval()
    for s in tqdm(range(0, len(order), batch), desc="cache lower layers", unit="batch"):
        idx = order[s:s + batch]
        b = collate([feats[i] for i in idx])
        h = model.encode_bottom(b["input_ids"], b["token_type_ids"], b["attention_mask"])
        for k, i in enumerate(idx):
            out[i] = h[k, : len(feats[i].input_ids)].to(torch.float16).clone()
    tmp = path.with_suffix(".tmp")
    torch.save(out, tmp)
    tmp.replace(path)
    return out


def batches(indices: list[int], feats, batch_size: int, rng: random.Random) -> list[list[int]]:
    """Length-bucketed batches in random order (less padding, same randomness per seed)."""
    idx = list(indices)
    rng.shuffle(idx)
    chunks = [sorted(idx[i:i + batch_size * 20], key=lambda j: len(feats[j].input_ids))
              for i in range(0, len(idx), batch_size * 20)]
    out = [c[i:i + batch_size] for c in chunks for i in range(0, len(c), batch_size)]
    rng.shuffle(out)
    return out


def evaluate(model: CommandModel, feats, hidden, golds: list[str], batch: int = 64) -> tuple[dict, list]:
    model.eval()
    preds: list = [None] * len(feats)
    order = sorted(range(len(feats)), key=lambda i: len(feats[i].input_ids))
    for s in range(0, len(order), batch):
        idx = order[s:s + batch]
        res = decode_batch(model, [feats[i] for i in idx], [hidden[i] for i in idx] if hidden else None)
        for i, r in zip(idx, res):
            preds[i] = r[0].text if r else None
    return accuracy_table(preds, golds), preds


def main(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    torch.set_num_threads(max(1, args.threads))
    distributed = int(os.environ.get("WORLD_SIZE", "1")) > 1
    rank, world = 0, 1
    if distributed:
        import torch.distributed as dist

        dist.init_process_group("nccl" if torch.cuda.is_available() else "gloo")
        rank, world = dist.get_rank(), dist.get_world_size()
    model_seed = args.seed if args.model_seed is None else args.model_seed
    seed_everything(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    log = (out / "train.log").open("a") if rank == 0 else None

    def say(msg: str) -> None:
        if rank == 0:
            tqdm.write(msg)
            log.write(msg + "\n")
            log.flush()

    t_start = time.time()
    data = Path(args.data)
    concepts = ConceptIndex(data / "image_concept.json", data / "image_h5_id2idx.json")
    train = load_caise(data / "md_train.json", concepts)
    valid = load_caise(data / "md_valid.json", concepts)
    if args.limit:
        train = train[: args.limit]
    for extra in args.extra:  # locally collected dialogues (annotator exports) join the train split
        more = load_caise(extra, find_concepts(extra))
        say(f"data: {len(more)} extra instances from {extra}")
        train = train + more
    if args.valid_limit:
        valid = valid[: args.valid_limit]
    # Concepts for synthetic dialogues come from images of the training dialogues only.
    pool = [ex.concepts for ex in train if ex.concepts]
    syn = synthetic_examples(args.synthetic, seed=args.seed, concept_pool=pool)
    syn += extension_examples(args.extensions, seed=args.seed + 1, concept_pool=pool)
    train_all = train + syn
    say(f"data: {len(train)} CAISE train + {len(syn)} synthetic, {len(valid)} valid")

    cfg = CommandModelConfig(lora_r=args.lora_r, lora_layers=args.lora_layers, concept_form=args.concept_form,
                             max_concept_pieces=args.concept_pieces, encoder=args.encoder)
    tok = get_tokenizer(cfg)
    train_feats = prepare(train_all, cfg, tok)
    valid_feats = [featurize(ex.history, ex.concepts, cfg, tok) for ex in valid]
    cfg.vocab = build_vocab(train_all, args.min_word_count)
    say(f"vocabulary: {len(cfg.vocab)} words; max pieces {max(len(f.input_ids) for f in train_feats)}")

    if args.model_seed is not None:
        seed_everything(model_seed)  # another initialisation of the same data
    model = CommandModel(cfg)
    # The cache depends only on what the frozen layers see, not on the decoder's settings.
    key = hashlib.sha1(json.dumps({"cfg": {k: v for k, v in asdict(cfg).items() if k in ENCODER_INPUTS},
                                   "train": [f.input_ids for f in train_feats],
                                   "valid": [f.input_ids for f in valid_feats]}).encode()).hexdigest()[:12]
    cache_path = Path(args.cache) if args.cache else out / f"cache_{key}.pt"
    if rank == 0:
        hidden_all = bottom_cache(model, train_feats + valid_feats, cache_path)
    if distributed:
        torch.distributed.barrier()
    if rank != 0:
        hidden_all = torch.load(cache_path, weights_only=True)
    if len(hidden_all) != len(train_feats) + len(valid_feats) or any(
            h.shape[0] != len(f.input_ids) for h, f in zip(hidden_all, train_feats + valid_feats)):
        raise SystemExit(f"{cache_path} does not match these examples; delete it or drop --cache")
    train_hidden, valid_hidden = hidden_all[: len(train_feats)], hidden_all[len(train_feats):]
    say(f"cache ready ({time.time() - t_start:.0f}s)")

    for name, p in model.named_parameters():
        p.requires_grad = ("lora_" in name) or not name.startswith("encoder.")
    lora_params = [p for n, p in model.named_parameters() if p.requires_grad and "lora_" in n]
    own_params = [p for n, p in model.named_parameters() if p.requires_grad and "lora_" not in n]
    n_train = sum(p.numel() for p in lora_params + own_params)
    say(f"trainable parameters: {n_train:,} (LoRA {sum(p.numel() for p in lora_params):,})")
    opt = torch.optim.AdamW([{"params": own_params, "lr": args.lr},
                             {"params": lora_params, "lr": args.lora_lr}], weight_decay=0.01)
    net = model
    if distributed:
        from torch.nn.parallel import DistributedDataParallel

        net = DistributedDataParallel(model)
    from torch.utils.data import DistributedSampler

    token_lists = [ex.extra["tokens"] for ex in train_all]
    steps_per_epoch = math.ceil(len(train_feats) / world / args.batch_size)
    total = steps_per_epoch * args.epochs
    warm = max(1, total // 20)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, (s + 1) / warm) * max(0.05, 0.5 * (1 + math.cos(math.pi * min(1.0, s / total)))))
    sampler = DistributedSampler(range(len(train_feats)), num_replicas=world, rank=rank,
                                 shuffle=True, seed=model_seed) if distributed else None
    best, best_epoch = -1.0, -1
    from agent.command_model import collate

    for epoch in range(args.epochs):
        net.train()
        if sampler is not None:
            sampler.set_epoch(epoch)
            indices = list(sampler)
        else:
            indices = list(range(len(train_feats)))
        rng = random.Random(model_seed * 1000 + epoch)
        plan = batches(indices, train_feats, args.batch_size, rng)
        bar = tqdm(plan, desc=f"epoch {epoch + 1}/{args.epochs}", unit="batch", disable=rank != 0)
        run_loss = 0.0
        for i, idx in enumerate(bar):
            fs = [train_feats[j] for j in idx]
            batch = collate(fs, [train_hidden[j] for j in idx])
            targets = make_targets(fs, [token_lists[j] for j in idx], cfg, model.word_index)
            _, loss = net(batch, targets)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(lora_params + own_params, 1.0)
            opt.step()
            sched.step()
            run_loss = 0.98 * run_loss + 0.02 * loss.item() if i else loss.item()
            bar.set_postfix(loss=f"{run_loss:.3f}")
        if rank == 0 and (epoch + 1 >= args.eval_from or epoch + 1 == args.epochs):
            t0 = time.time()
            table, preds = evaluate(model, valid_feats, valid_hidden, [ex.api for ex in valid])
            acc = table["total"]["accuracy"]
            per = ", ".join(f"{k} {v['accuracy']:.3f}" for k, v in table.items())
            say(f"epoch {epoch + 1}: loss {run_loss:.4f}; valid {per} ({time.time() - t0:.0f}s eval, "
                f"{time.time() - t_start:.0f}s total)")
            info = {"epoch": epoch + 1, "valid": table, "seed": args.seed, "model_seed": model_seed, "args": vars(args),
                    "elapsed_s": round(time.time() - t_start)}
            save_checkpoint(model, out / "last.safetensors", info)
            if acc > best:
                best, best_epoch = acc, epoch + 1
                save_checkpoint(model, out / "best.safetensors", info)
                (out / "valid_predictions.json").write_text(json.dumps(
                    [{"uid": ex.uid, "gold": ex.api, "pred": p} for ex, p in zip(valid, preds)], indent=0))
        if distributed:
            torch.distributed.barrier()
    if rank == 0:
        say(f"best valid total {best:.4f} at epoch {best_epoch}; training took {time.time() - t_start:.0f}s")
        if args.ship:
            DEFAULT_WEIGHTS.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(out / "best.safetensors", DEFAULT_WEIGHTS)
            say(f"shipped {DEFAULT_WEIGHTS} ({DEFAULT_WEIGHTS.stat().st_size / 1e6:.1f} MB)")
        log.close()
    if distributed:
        torch.distributed.destroy_process_group()
    return 0
