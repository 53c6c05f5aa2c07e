"""Fit the referent-colour ranker (:mod:`agent.learned.referent_colour`) on CAISE's train split:
``python -m training train-referent-colour [--train md_train.json] [--valid md_valid.json]``.

1. The command model (shipped weights, no rules) reads every request; where the request names its
   colour by a thing ("the colour of the girl's jacket") and the model wrote a colour, the request
   becomes a ranking problem over the palette, with the gold colour as the answer.
2. The referent-word table and the colour priors are counted on train; the word feature is computed
   leave-one-out there, so the weights do not learn to trust a table that has seen the answer.
3. The weights are fitted by L2-regularised conditional maximum likelihood (scipy's L-BFGS).
4. It prints colour accuracy on the train and validation queries: the model alone, the previous
   hand-written rule (:func:`agent.command_model.colour_of_referent`) and the ranker; the end-to-end
   CAISE figures come from ``evaluate-commands``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
from tqdm import tqdm

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "caise"


def add_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--train", default=str(DATA / "md_train.json"))
    p.add_argument("--valid", default=str(DATA / "md_valid.json"), help="reported, never fitted on")
    p.add_argument("--model", help="command model checkpoint (default: the shipped weights)")
    p.add_argument("--cache", help="JSON file keeping the command model's readings between runs (made if missing)")
    p.add_argument("--l2", type=float, default=1.0)
    p.add_argument("--smoothing", type=float, default=2.0)
    p.add_argument("--out", help="where to write the JSON (default: resources/command_model/referent_colour.json)")
    p.add_argument("--folds", type=int, default=5, help="cross-validation folds on train for the report (0: none)")
    p.add_argument("--seed", type=int, default=0, help="the folds' seed")
    p.add_argument("--dry-run", action="store_true", help="report only, write nothing")


def colour_queries(examples, preds: dict[str, dict]):
    """(query, gold colour, example) for every example whose request names its colour by a thing
    and whose gold command carries one colour (adjust_color, or a search with one colour word)."""
    from agent.command_model import history_words, words_of
    from agent.learned.referent_colour import SEARCH_PALETTE
    from agent.learned.referent_colour import gate as colour_gate

    out = []
    for ex in examples:
        gold = words_of(ex.api)
        hw = history_words(ex.history)
        request = [w for w, t in hw if t == 0]
        reading = preds.get(ex.uid) or {}
        q = colour_gate(reading.get("tokens") or [], request, ex.concepts, reading.get("earlier") or (),
                        split=words_of, slot=reading.get("slot"))
        if q is None:
            continue
        if gold[:1] == ["adjust_color"] and q.kind == "edit":
            answer = gold[1]
        elif gold[:1] == ["search"] and q.kind == "search":
            cs = [w for w in gold[1:] if w in SEARCH_PALETTE]
            if len(cs) != 1:
                continue
            answer = cs[0]
        else:
            continue
        if answer not in q.palette:
            continue
        out.append((q, answer, ex))
    return out


def fit_weights(xs: list[tuple[np.ndarray, int]], l2: float = 1.0) -> np.ndarray:
    """L2-regularised conditional-logit weights for (candidate features, index of the answer) pairs."""
    from scipy.optimize import minimize

    def nll(w):
        total, grad = 0.0, np.zeros_like(w)
        for x, y in xs:
            s = x @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            total -= np.log(p[y] + 1e-12)
            grad -= x[y] - p @ x
        return total + l2 * (w @ w) / 2, grad + l2 * w

    return minimize(nll, np.zeros(xs[0][0].shape[1]), jac=True, method="L-BFGS-B").x


def fit_ranker(queries, embed, l2: float = 1.0, smoothing: float = 2.0):
    """A ranker fitted on (query, answer, example) triples: the referent-word table and colour priors
    counted on them, the weights fitted with the table's word feature computed leave-one-out."""
    from agent.grammar.lexicon import noun_key as _noun_key
    from agent.learned.referent_colour import FEATURES, ReferentColourModel

    word_counts: dict[str, Counter] = {}
    priors: dict[str, Counter] = {"edit": Counter(), "search": Counter()}
    for q, answer, _ex in queries:
        priors[q.kind][answer] += 1
        if q.referents:
            word_counts.setdefault(_noun_key(q.referents[-1]), Counter())[answer] += 1
    prior_p = {kind: {k: (v + 1) / (sum(c.values()) + len(c) + 1) for k, v in c.items()} for kind, c in priors.items()}
    ranker = ReferentColourModel({}, {k: dict(v) for k, v in word_counts.items()}, prior_p, smoothing)
    xs = []
    for q, answer, _ex in queries:
        cands, x = ranker.features(q, embed, exclude=answer)
        xs.append((x, cands.index(answer)))
    w = fit_weights(xs, l2)
    return ReferentColourModel(dict(zip(FEATURES, [round(float(v), 4) for v in w])), ranker.word_counts, prior_p,
                               smoothing)


def readings(model_path, examples, batch_size: int = 64) -> dict[str, dict]:
    """The command model's own words (no rules) and colour-slot probabilities for every example."""
    import torch

    from agent.command_model import DEFAULT_WEIGHTS, decode_batch, featurize, get_tokenizer, load_checkpoint

    model, _ = load_checkpoint(model_path or DEFAULT_WEIGHTS)
    tok = get_tokenizer(model.cfg)
    feats = [featurize(ex.history, ex.concepts, model.cfg, tok) for ex in examples]
    order = sorted(range(len(feats)), key=lambda i: len(feats[i].input_ids))
    out: dict[str, dict] = {}
    with torch.inference_mode():
        for s in tqdm(range(0, len(order), batch_size), desc="reading", unit="batch"):
            idx = order[s:s + batch_size]
            for i, beams in zip(idx, decode_batch(model, [feats[i] for i in idx], rules=False)):
                if beams:
                    out[examples[i].uid] = {"tokens": beams[0].tokens, "slot": beams[0].slot,
                                            "earlier": feats[i].earlier}
    return out


def main(args: argparse.Namespace) -> int:
    from agent.command_model import colour_of_referent, history_words
    from agent.learned.referent_colour import DEFAULT_PATH
    from agent.perception.text import text_encoder
    from training.commands_data import find_concepts, load_caise

    t0 = time.time()
    sets = {}
    cache = json.loads(Path(args.cache).read_text()) if args.cache and Path(args.cache).exists() else {}
    for name, path in (("train", args.train), ("valid", args.valid)):
        try:
            examples = load_caise(path, find_concepts(path))
        except (OSError, ValueError) as exc:
            print(f"train-referent-colour: {exc}", file=sys.stderr)
            return 2
        key = str(Path(path).resolve())
        if key not in cache:
            cache[key] = readings(args.model, examples)
            if args.cache:
                Path(args.cache).write_text(json.dumps(cache))
        sets[name] = colour_queries(examples, cache[key])
        print(f"{name}: {len(examples)} instances, {len(sets[name])} colour-by-reference queries")

    vectors: dict[str, np.ndarray] = {}
    enc = text_encoder()

    def embed(texts: list[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in vectors]
        if missing:
            for t, v in zip(missing, enc.encode(missing, batch_size=128)):
                vectors[t] = v
        return np.stack([vectors[t] for t in texts])

    train = sets["train"]
    cv = None
    if args.folds > 1:  # each fold scored by a ranker (table and weights) fitted on the other folds
        fold = np.random.default_rng(args.seed).integers(0, args.folds, len(train))
        right = 0
        for k in range(args.folds):
            r = fit_ranker([t for t, f in zip(train, fold) if f != k], embed, args.l2, args.smoothing)
            right += sum(r.rank(q, embed)[0][0] == a for (q, a, _), f in zip(train, fold) if f == k)
        cv = right / max(1, len(train))
    ranker = fit_ranker(train, embed, args.l2, args.smoothing)
    weights = ranker.weights
    print(f"fitted ({time.time() - t0:.0f}s, {len(vectors)} phrases embedded)")

    report = {}
    for name in ("train", "valid"):
        queries = sets[name]
        model_ok = sum(q.model_colour == a for q, a, _ in queries)
        rule_ok = 0
        for q, a, ex in queries:
            request = [w for w, t in history_words(ex.history) if t == 0]
            c = colour_of_referent(request, ex.concepts, q.kind, prefer=q.model_colour)
            rule_ok += (c or q.model_colour) == a
        rank_ok = sum(ranker.rank(q, embed)[0][0] == a for q, a, _ in queries)
        n = max(1, len(queries))
        report[name] = {"queries": len(queries), "model": model_ok / n, "rule": rule_ok / n, "ranker": rank_ok / n}
        print(f"{name}: colour right in {len(queries)} queries: model alone {model_ok / n:.1%}, "
              f"hand rule {rule_ok / n:.1%}, ranker {rank_ok / n:.1%}"
              + (f" ({args.folds}-fold cross-validated: {cv:.1%})" if name == "train" and cv is not None else ""))
        if name == "train" and cv is not None:
            report[name]["ranker_cv"] = cv
    print("weights: " + ", ".join(f"{k} {v:+.2f}" for k, v in weights.items()))
    ranker.info = {"fitted_on": Path(args.train).name, "l2": args.l2, "folds": args.folds, "report": report}
    if not args.dry_run:
        out = Path(args.out) if args.out else DEFAULT_PATH
        ranker.save(out)
        print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KB)")
    return 0
