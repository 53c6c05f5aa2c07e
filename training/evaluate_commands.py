"""Evaluate the command model on a CAISE-format file:
``python -m training evaluate-commands FILE.json [--json] [--concepts PATH] [--id2idx PATH] [--model PATH]
[--rules all|none|NAME,NAME|-NAME,-NAME] [--ablate]``.

Prints exact-match accuracy per command type and in total with CAISE's rule (case-insensitive and
trimmed; search words in any order; adjust_color correct when the colour matches). ``--rules``
chooses which hand rules (:data:`agent.command_model.rules.RULES`) are on; ``--ablate`` measures
each rule's worth: right answers with all rules minus right answers with that rule off, and right
answers with that rule alone minus none.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import torch

from training.commands_data import accuracy_table, confusion, find_concepts, load_caise


def add_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a CAISE-format JSON file (e.g. md_valid.json)")
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    p.add_argument("--concepts", help="image_concept.json (default: beside FILE)")
    p.add_argument("--id2idx", help="image_h5_id2idx.json (default: beside FILE)")
    p.add_argument("--model", help="a checkpoint (default: the shipped resources/command_model weights)")
    p.add_argument("--predictions", help="write each instance's gold and predicted command to this JSON file")
    p.add_argument("--threshold", type=float, default=0.5,
                   help="confidence below which the dialogue manager refuses (reports accuracy above/below it)")
    p.add_argument("--no-rules", action="store_true",
                   help="the learned model alone, without the deterministic direction and concept rules "
                        "(the same as --rules none)")
    p.add_argument("--rules", default="all",
                   help="the hand rules that are on: 'all' (default), 'none', 'a,b' (only those) or '-a,-b' "
                        "(all but those); names as in agent/command_model/rules.py (--list-rules)")
    p.add_argument("--list-rules", action="store_true", help="print the rules' names in order and exit")
    p.add_argument("--ablate", action="store_true",
                   help="measure every rule: right answers with it off (and alone), against all and none")
    p.add_argument("--breakdown", action="store_true",
                   help="also say where the gold words of right and wrong searches could have come from")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--batch-size", type=int, default=64)


def decode_all(model, examples, batch_size: int = 64, rules=True) -> list:
    """The best beam (:class:`agent.command_model.Decoded`, or None) of every example, decoded in
    length-sorted batches; ``rules`` as in :func:`agent.command_model.decode_batch`."""
    from agent.command_model import decode_batch, featurize, get_tokenizer

    tok = get_tokenizer(model.cfg)
    feats = [featurize(ex.history, ex.concepts, model.cfg, tok) for ex in examples]
    out: list = [None] * len(feats)
    order = sorted(range(len(feats)), key=lambda i: len(feats[i].input_ids))
    with torch.inference_mode():
        for s in range(0, len(order), batch_size):
            idx = order[s:s + batch_size]
            for i, beams in zip(idx, decode_batch(model, [feats[i] for i in idx], rules=rules)):
                out[i] = beams[0] if beams else None
    return out


def predict_all(model, examples, batch_size: int = 64, rules=True) -> list:
    """(text, confidence) for every example."""
    return [(d.text, d.confidence) if d is not None else (None, 0.0)
            for d in decode_all(model, examples, batch_size, rules)]


def _right(best: list, golds: list[str], rules) -> int:
    """Right answers when the beams in ``best`` are read with the rules ``rules`` (a set of names)."""
    import dataclasses

    from training.commands_data import caise_match

    return sum(caise_match(dataclasses.replace(d, rules=frozenset(rules)).text if d is not None else None, g)
               for d, g in zip(best, golds))


def ablate(model, examples, batch_size: int = 64) -> list[dict]:
    """Every rule's worth: right answers with all rules minus with that rule off, and with that rule
    alone minus with none. The word rules re-read the same beams; a decode rule decodes again."""
    from agent.command_model import RULES, select_rules

    golds = [ex.api for ex in examples]
    all_on = select_rules("all")
    decode_rules = frozenset(r.name for r in RULES if r.stage == "decode")
    decoded: dict[frozenset, list] = {}

    def right(on: frozenset) -> int:
        # The beams depend only on the decode rules; decode with all the word rules on, so each beam
        # keeps its context, and let _right choose the word rules.
        key = on & decode_rules
        if key not in decoded:
            decoded[key] = decode_all(model, examples, batch_size, key | (all_on - decode_rules))
        return _right(decoded[key], golds, on)

    everything, nothing = right(all_on), right(frozenset())
    rows = [{"rule": "(all)", "right": everything}, {"rule": "(none)", "right": nothing}]
    for r in RULES:
        off, alone = right(all_on - {r.name}), right(frozenset({r.name}))
        rows.append({"rule": r.name, "stage": r.stage, "right_without": off, "worth": everything - off,
                     "right_alone": alone, "worth_alone": alone - nothing})
    return rows


def main(args: argparse.Namespace) -> int:
    from agent.command_model import DEFAULT_WEIGHTS, RULE_NAMES, load_checkpoint, select_rules

    if args.list_rules:
        print("\n".join(RULE_NAMES))
        return 0
    try:
        rules = select_rules("none" if args.no_rules else args.rules)
    except ValueError as exc:
        print(f"evaluate-commands: {exc}", file=sys.stderr)
        return 2
    torch.set_num_threads(max(1, args.threads))
    try:
        concepts = find_concepts(args.file, args.concepts, args.id2idx)
        examples = load_caise(args.file, concepts)
    except ValueError as exc:
        print(f"evaluate-commands: {exc}", file=sys.stderr)
        return 2
    model_path = Path(args.model) if args.model else DEFAULT_WEIGHTS
    if not model_path.exists():
        print(f"evaluate-commands: no model at {model_path}; train one with "
              "'python -m training train-commands --ship'", file=sys.stderr)
        return 2
    model, info = load_checkpoint(model_path)
    if args.ablate:
        return _print_ablation(ablate(model, examples, args.batch_size), args)
    t0 = time.perf_counter()
    preds = predict_all(model, examples, args.batch_size, rules=rules)
    elapsed = time.perf_counter() - t0
    texts = [p for p, _ in preds]
    golds = [ex.api for ex in examples]
    table = accuracy_table(texts, golds)
    from training.commands_data import caise_match

    ok = [caise_match(p, g) for p, g in zip(texts, golds)]
    confs = [c for _, c in preds]
    sure = [i for i, c in enumerate(confs) if c >= args.threshold]
    unsure = [i for i, c in enumerate(confs) if c < args.threshold]
    gate = {"threshold": args.threshold, "accepted": len(sure), "refused": len(unsure),
            "accuracy_accepted": sum(ok[i] for i in sure) / len(sure) if sure else 0.0,
            "accuracy_refused": sum(ok[i] for i in unsure) / len(unsure) if unsure else 0.0}
    if args.predictions:
        Path(args.predictions).write_text(json.dumps(
            [{"uid": ex.uid, "gold": ex.api, "pred": p, "confidence": round(c, 4)}
             for ex, (p, c) in zip(examples, preds)], indent=1))
    if args.json:
        print(json.dumps({"file": str(args.file), "model": str(model_path), "accuracy": table,
                          "rules": [n for n in RULE_NAMES if n in rules],
                          "confusion": {k: dict(v) for k, v in confusion(texts, golds).items()},
                          "confidence_gate": gate, "concepts": concepts is not None,
                          "seconds": round(elapsed, 1)}, indent=1))
        return 0
    print(f"{args.file}: {len(examples)} instances, model {model_path}"
          f"{'' if concepts else ' (no image concepts found)'}")
    if rules != frozenset(RULE_NAMES):
        print(f"rules on: {', '.join(n for n in RULE_NAMES if n in rules) or 'none'}")
    print(f"{'type':<14}{'n':>6}{'correct':>9}{'accuracy':>10}")
    for k, v in table.items():
        print(f"{k:<14}{v['n']:>6}{v['correct']:>9}{100 * v['accuracy']:>9.1f}%")
    print(f"confidence >= {args.threshold}: {gate['accepted']} run, accuracy {100 * gate['accuracy_accepted']:.1f}%; "
          f"{gate['refused']} refused, of which {100 * gate['accuracy_refused']:.1f}% would have been right")
    print(f"({elapsed:.1f}s, {1000 * elapsed / max(1, len(examples)):.1f} ms per instance in batches)")
    if args.breakdown:
        from training.commands_data import search_breakdown

        counts = search_breakdown(examples, texts)
        n = sum(v for (_, where), v in counts.items() if where != "colour only")
        print(f"search words found in (of {n} searches): "
              + "; ".join(f"{where}: {counts[('right', where)]} right, {counts[('wrong', where)]} wrong"
                          for where in ("request", "dialogue", "concepts", "elsewhere"))
              + f"; {counts[('wrong', 'colour only')]} errors differ only in the colour")
    return 0


def _print_ablation(rows: list[dict], args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps({"file": str(args.file), "ablation": rows}, indent=1))
        return 0
    everything, nothing = rows[0]["right"], rows[1]["right"]
    print(f"{args.file}: right answers with all rules {everything}, with none {nothing}")
    print(f"{'rule':<30}{'stage':<8}{'off':>6}{'worth':>7}{'alone':>7}{'worth':>7}")
    for r in rows[2:]:
        print(f"{r['rule']:<30}{r['stage']:<8}{r['right_without']:>6}{r['worth']:>+7}{r['right_alone']:>7}"
              f"{r['worth_alone']:>+7}")
    return 0
