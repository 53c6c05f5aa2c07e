"""Benchmark of the photo library: indexing throughput, query latency at scale, retrieval quality.

    python bench/library.py                 # everything (about 5 minutes on 2 cores)
    python bench/library.py --skip-scale    # no 10k/100k latency runs
    python bench/library.py --sizes 10000   # latency at 10k only

1. Indexing throughput, images per second, over the sample library (resources/library, 32 photos)
   with empty caches, OCR off and on; models are loaded before the clock starts.
2. Query latency with 10k and 100k entries: synthetic descriptions (random colour/object/label
   phrases) with synthetic unit embeddings (random, clustered); each query is a real one, encoded by
   MiniLM, then ranked by FTS5 + sqlite-vec + fusion. Median and 95th percentile, and the split.
3. Retrieval quality on resources/library/queries.json (query -> expected photos, written from what
   the photos show): recall@1 and recall@5 for RRF (the default), a normalised weighted sum, and
   each index alone, with and without OCR text. The photos are copied under anonymous names
   (img_000.jpg, ...) so that file names cannot give the answer away.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agent.perception import concepts  # noqa: E402
from agent.perception import models as perception  # noqa: E402
from agent.perception.text import text_encoder  # noqa: E402
from agent.search.library import SAMPLE_DIR, SAMPLE_PERCEPTION, Library  # noqa: E402
from editor.library import EXACT_LIMIT, LibraryIndex  # noqa: E402

QUERIES = SAMPLE_DIR / "queries.json"


def _images() -> list[Path]:
    return sorted(p for p in SAMPLE_DIR.iterdir() if p.suffix in (".jpg", ".png"))


def _warm_up() -> None:
    from editor.imageio import read_image

    with tempfile.TemporaryDirectory() as tmp:
        concepts.perceive(read_image(_images()[0]).pixels, ocr=True, db=Path(tmp) / "w.db", use_cache=False)
    text_encoder().encode(["warm up"])


def bench_indexing() -> None:
    print("== indexing throughput (sample library, empty caches, models already loaded)")
    _warm_up()
    n = len(_images())
    for ocr in (False, True):
        with tempfile.TemporaryDirectory() as tmp:
            photos = Path(tmp) / "photos"
            photos.mkdir()
            for p in _images():
                shutil.copy(p, photos / p.name)
            concepts.clear_memory_cache()
            lib = Library(Path(tmp) / "library.db")
            t = time.perf_counter()
            report = lib.index([photos], ocr=ocr, progress=False)
            dt = time.perf_counter() - t
            assert report.added == n, report.summary()
            print(f"  OCR {'on ' if ocr else 'off'}: {n} images in {dt:.1f} s = {n / dt:.2f} images/s")
            t = time.perf_counter()
            again = lib.index([photos], ocr=ocr, progress=False)
            dt2 = time.perf_counter() - t
            print(f"           re-index, nothing changed: {again.unchanged} skipped in {dt2 * 1000:.0f} ms")
            lib.close()


_COLORS = ["red", "orange", "yellow", "green", "blue", "light blue", "purple", "pink", "brown",
           "black", "white", "gray", "beige"]
_OBJECTS = ["person", "cat", "dog", "car", "bus", "bicycle", "cup", "bottle", "chair", "umbrella",
            "boat", "bird", "horse", "kite", "clock", "book", "laptop", "bench", "vase", "pizza"]


def _synthetic(n: int, rng: np.random.Generator) -> tuple[list[dict], np.ndarray]:
    _, names = perception.classifier_and_labels()
    labels = [name.split(",")[0] for name in names]
    rows = []
    for i in range(n):
        objs = rng.choice(_OBJECTS, rng.integers(0, 4))
        cols = rng.choice(_COLORS, 2, replace=False)
        objects = ", ".join(f"a {rng.choice(_COLORS)} {o}" for o in objs)
        desc = (f"A photo{' of ' + objects if objects else ''}. It looks like a "
                f"{rng.choice(labels)} and a {rng.choice(labels)}. Mostly {cols[0]} and {cols[1]}.")
        rows.append({"path": f"/synthetic/{i // 1000:03d}/img_{i:06d}.jpg", "hash": f"{i:064x}",
                     "description": desc, "keywords": ", ".join(objs)})
    centres = rng.normal(size=(256, 384)).astype(np.float32)
    emb = centres[rng.integers(0, 256, n)] + 0.7 * rng.normal(size=(n, 384)).astype(np.float32)
    emb /= np.linalg.norm(emb, axis=1, keepdims=True)
    return rows, emb


def bench_latency(sizes: list[int]) -> None:
    print("== query latency (synthetic entries; real queries encoded by MiniLM)")
    queries = [q["query"] for q in json.loads(QUERIES.read_text())["queries"]]
    enc = text_encoder()
    rng = np.random.default_rng(0)
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            index = LibraryIndex(Path(tmp) / "library.db")
            t = time.perf_counter()
            for start in range(0, n, 10000):
                rows, emb = _synthetic(min(10000, n - start), rng)
                for r in rows:
                    r["path"] = r["path"].replace("/synthetic/", f"/synthetic/{start}/")
                index.add_many(rows, emb)
                index.commit()
            build = time.perf_counter() - t
            size_mb = sum(f.stat().st_size for f in Path(tmp).iterdir()) / 1e6
            for q in queries[:3]:  # warm the page cache
                index.search(q, enc.encode([q])[0], limit=10)
            total, parts = [], {"encode": [], "fts": [], "vec": []}
            for _ in range(3):
                for q in queries:
                    t0 = time.perf_counter()
                    vec = enc.encode([q])[0]
                    t1 = time.perf_counter()
                    index.search(q, vec, limit=10)
                    t2 = time.perf_counter()
                    total.append(t2 - t0)
                    parts["encode"].append(t1 - t0)
                    t3 = time.perf_counter()
                    index.text_search(q, 50)
                    t4 = time.perf_counter()
                    index.vector_search(vec, 50)
                    parts["fts"].append(t4 - t3)
                    parts["vec"].append(time.perf_counter() - t4)
            # How much of the exact top 10 the quantised search finds: for the real queries (whose
            # neighbours among random synthetic vectors are near-ties, the worst case) and for
            # queries near stored vectors (a stored embedding plus noise, as a real match is).
            overlap, near = [], []
            for j, q in enumerate(queries):
                vec = enc.encode([q])[0]
                exact = {i for i, _ in index.vector_search(vec, 10, exact=True)}
                approx = {i for i, _ in index.vector_search(vec, 10, exact=False)}
                overlap.append(len(exact & approx) / 10)
                probe = index.embedding(1 + (j * 997) % n) + 0.05 * rng.normal(size=384).astype(np.float32)
                probe /= np.linalg.norm(probe)
                exact = {i for i, _ in index.vector_search(probe, 10, exact=True)}
                approx = {i for i, _ in index.vector_search(probe, 10, exact=False)}
                near.append(len(exact & approx) / 10)
            t = time.perf_counter()
            for q in queries:
                index.vector_search(enc.encode([q])[0], 50, exact=True)
            exact_ms = (time.perf_counter() - t) / len(queries) * 1000 - statistics.median(parts["encode"]) * 1000
            mode = "binary-quantised + rescored" if n > EXACT_LIMIT else "exact"
            print(f"  {n:>7,} entries: vector search is {mode}; exact float KNN alone takes ~{exact_ms:.0f} ms; "
                  f"quantised top-10 overlap with exact top 10: {statistics.mean(overlap):.3f} (real queries), "
                  f"{statistics.mean(near):.3f} (queries near stored vectors)")
            ms = sorted(x * 1000 for x in total)
            split = ", ".join(f"{k} {statistics.median(v) * 1000:.1f}" for k, v in parts.items())
            print(f"  {n:>7,} entries (built in {build:.0f} s, {size_mb:.0f} MB): median {statistics.median(ms):.1f} ms, "
                  f"p95 {ms[int(0.95 * len(ms))]:.1f} ms over {len(ms)} queries (medians, ms: {split})")
            index.close()


def bench_quality() -> None:
    print("== retrieval quality (resources/library/queries.json, anonymous file names)")
    spec = json.loads(QUERIES.read_text())["queries"]
    seeds = json.loads(SAMPLE_PERCEPTION.read_text())
    for ocr in (False, True):
        with tempfile.TemporaryDirectory() as tmp:
            photos = Path(tmp) / "photos"
            photos.mkdir()
            alias = {}
            for i, p in enumerate(_images()):
                dst = photos / f"img_{i:03d}{p.suffix}"
                shutil.copy(p, dst)
                alias[str(dst)] = p.name
            db = Path(tmp) / "library.db"
            concepts.clear_memory_cache()
            concepts.seed_cache([{**s, "text": s["text"] if ocr else None} for s in seeds], db=db)
            lib = Library(db)
            lib.index([photos], ocr=ocr, progress=False)
            for method in ("rrf", "weighted", "text", "vector"):
                r1 = r5 = 0
                misses = []
                for q in spec:
                    got = [alias[r.path] for r in lib.search(q["query"], limit=5, method=method)]
                    r1 += bool(got[:1] and got[0] in q["expected"])
                    hit5 = bool(set(got[:5]) & set(q["expected"]))
                    r5 += hit5
                    if not hit5:
                        misses.append(q["query"])
                n = len(spec)
                print(f"  OCR {'on ' if ocr else 'off'} {method:8s}: recall@1 {r1 / n:.3f} ({r1}/{n}), "
                      f"recall@5 {r5 / n:.3f} ({r5}/{n})")
                if method == "rrf":
                    print(f"      missed at 5: {'; '.join(misses)}")
            lib.close()
    concepts.clear_memory_cache()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[10000, 100000])
    ap.add_argument("--skip-scale", action="store_true")
    ap.add_argument("--skip-indexing", action="store_true")
    ap.add_argument("--skip-quality", action="store_true")
    args = ap.parse_args()
    import torch

    # One thread by default: on a shared 2-core machine two OpenMP threads spin against other
    # processes and run several times slower (measured: see the report); EASEL_THREADS=2 to compare.
    torch.set_num_threads(int(os.environ.get("EASEL_THREADS", "1")))
    import cv2

    cv2.setNumThreads(torch.get_num_threads())
    print(f"torch threads {torch.get_num_threads()}, cpus {os.cpu_count()}, load avg "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if not args.skip_quality:
        bench_quality()
    if not args.skip_indexing:
        bench_indexing()
    if not args.skip_scale:
        bench_latency(args.sizes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
