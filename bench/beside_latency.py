"""Latency of issue 27's items 5 and 6 through the assistant, with references measured in the same run.

- a search that opens its match beside an edited 12-megapixel photo ("find me a photo of a cat"),
  "another one" (the next match) and "go back to the previous photo", against a brightness turn on
  the same photo (the reference);
- ``rotate 5 crop`` on a 12-megapixel photo, against ``rotate 5`` (the same turn without the crop)
  and Pillow's ``rotate(5, expand=True)`` (bicubic).

Medians of ``--repeat`` runs, with the load average at the start: on a shared machine the absolute
times are inflated and the ratios are what to compare. Run::

    .venv/bin/python bench/beside_latency.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent.dialogue.manager import DialogueManager  # noqa: E402
from agent.search.library import Library, register  # noqa: E402
from editor.document import Document  # noqa: E402
from editor.geometry import rotate_crop  # noqa: E402
from editor.ops import rotate  # noqa: E402
from editor.store import Store  # noqa: E402


def twelve_mp() -> np.ndarray:
    import cv2
    from skimage import data

    return cv2.resize(data.astronaut(), (4000, 3000), interpolation=cv2.INTER_CUBIC)


def timed(fn, repeat: int) -> float:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return statistics.median(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    big = twelve_mp()
    from PIL import Image

    pil = Image.fromarray(big)
    ops = {
        "rotate 5 crop (editor.geometry.rotate_crop)": lambda: rotate_crop(big, degrees=5),
        "rotate 5 (editor.ops.rotate, corners left)": lambda: rotate(big, degrees=5),
        "Pillow rotate(5, expand=True, bicubic)": lambda: pil.rotate(5, Image.BICUBIC, expand=True),
    }
    got = {name: timed(fn, args.repeat) for name, fn in ops.items()}
    ref = got["rotate 5 (editor.ops.rotate, corners left)"]
    print(f"12 MP (4000x3000), median of {args.repeat}:")
    for name, t in got.items():
        print(f"  {name:46} {t * 1000:7.0f} ms   x{t / ref:.2f} of rotate 5")

    with tempfile.TemporaryDirectory() as tmp:
        library = Library(Path(tmp) / "library.db")
        library.ensure_sample()
        turns = {"find me a photo of a cat": [], "another one": [], "go back to the previous photo": [],
                 "make it brighter (reference)": [], "rotate 5 degrees and crop the corners": []}
        from agent.dialogue.assistant import load_parser

        parser = load_parser()  # the learned command model, as in the app and `main.py edit`
        print(f"parser: {type(parser).__name__}; the photo's concepts are not given (the app perceives them in "
              "a worker between turns)")
        for _ in range(args.repeat):
            store = Store(Path(tmp) / "easel.db")
            doc = Document.create(store, big, title="big.png")
            manager = DialogueManager(doc, parser=parser)
            register(manager, library, store=store)
            manager.handle("make it warmer")  # the photo being edited has an edit
            for words in turns:
                if words.endswith("(reference)"):
                    manager.handle("go back to the previous photo") if manager.document is not doc else None
                    t0 = time.perf_counter()
                    result = manager.handle("make it brighter")
                else:
                    t0 = time.perf_counter()
                    result = manager.handle(words)
                turns[words].append(time.perf_counter() - t0)
                assert result.ok, (words, result.reply)
            store.close()
        library.close()
    ref = statistics.median(turns["make it brighter (reference)"])
    print(f"turns through the assistant on a 12 MP photo (the sample library), median of {args.repeat}:")
    for words, times in turns.items():
        t = statistics.median(times)
        print(f"  {words:46} {t * 1000:7.0f} ms   x{t / ref:.2f} of a brightness turn")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
