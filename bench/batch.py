"""Benchmark of batches: photos per second for a 4-command recipe on 12-megapixel photos, with 1 and
2 local worker processes and on a local Ray runtime, peak memory per worker, and the projection for
a million photos on N nodes from the measured per-photo cost.

    python bench/batch.py                  # 200 photos (about 10 minutes on 2 busy cores)
    python bench/batch.py --count 40       # quicker; the figures say what was run
    python bench/batch.py --skip-ray       # no Ray runtime

The photos are the sample library's JPEGs (resources/library) upscaled to 4000x3000 (Lanczos) and
saved as JPEG quality 90, made once in --cache and reused. Each run writes to a fresh folder; the
figures are wall-clock time from the first job to the last output (Ray's start is timed apart: its
overhead is that start plus the difference in throughput). "per photo" is the worker's own time for
one photo (read, 4 commands, encode), the cost a cluster would pay per photo per core.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agent.batch import cluster  # noqa: E402
from agent.batch.batch import run_batch  # noqa: E402
from agent.batch.recipes import Recipe  # noqa: E402

RECIPE = Recipe("bench", ["adjust_attr brightness 15", "adjust_attr contrast 10",
                          "adjust_attr saturation -20", "adjust_attr warmth 20"])
SIZE = (4000, 3000)


def make_photos(cache: Path, count: int) -> list[Path]:
    from PIL import Image

    cache.mkdir(parents=True, exist_ok=True)
    sources = sorted((ROOT / "resources" / "library").glob("*.jpg"))
    out = []
    for i in range(count):
        path = cache / f"photo_{i:04d}.jpg"
        if not path.exists():
            with Image.open(sources[i % len(sources)]) as im:
                big = im.convert("RGB").resize(SIZE, Image.Resampling.LANCZOS)
            tmp = path.with_suffix(".tmp")
            big.save(tmp, format="JPEG", quality=90)
            tmp.rename(path)
        out.append(path)
    return out


def run(label: str, photos: list[Path], workdir: Path, **kwargs) -> dict:
    out = workdir / label.replace(" ", "_")
    shutil.rmtree(out, ignore_errors=True)
    t0 = time.perf_counter()
    summary = run_batch(RECIPE, photos, out, progress=False, **kwargs)
    wall = time.perf_counter() - t0
    lines = [json.loads(x) for x in Path(summary.report).read_text().splitlines()]
    per_photo = statistics.median(x["seconds"] for x in lines if x["status"] == "done")
    peaks = {}
    for x in lines:
        peaks[x["pid"]] = max(peaks.get(x["pid"], 0), x["peak_rss_mb"])
    shutil.rmtree(out, ignore_errors=True)
    row = {"label": label, "photos": summary.done, "failed": summary.failed, "seconds": wall,
           "photos_per_s": summary.done / wall, "per_photo_s": per_photo, "workers_seen": len(peaks),
           "peak_rss_mb": max(peaks.values())}
    print(f"{label:12s} {row['photos']:4d} photos  {wall:7.1f} s  {row['photos_per_s']:6.3f} photos/s  "
          f"worker time per photo {per_photo:5.2f} s (median)  peak RSS per worker {row['peak_rss_mb']:.0f} MB "
          f"({len(peaks)} worker process(es))", flush=True)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "easel-bench-12mp")
    ap.add_argument("--skip-ray", action="store_true")
    args = ap.parse_args()
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    print(f"cores: {os.cpu_count()}; recipe: {RECIPE.commands}")
    t0 = time.perf_counter()
    photos = make_photos(args.cache, args.count)
    print(f"{len(photos)} photos of {SIZE[0]}x{SIZE[1]} ({SIZE[0] * SIZE[1] / 1e6:.0f} MP) in {args.cache} "
          f"(ready in {time.perf_counter() - t0:.0f} s)", flush=True)
    work = Path(tempfile.mkdtemp(prefix="easel-bench-batch-"))
    rows = [run("1 worker", photos, work, workers=1), run("2 workers", photos, work, workers=2)]
    if not args.skip_ray:
        t0 = time.perf_counter()
        cluster.connect("local", num_cpus=2)
        start = time.perf_counter() - t0
        print(f"Ray local runtime (num_cpus=2) started in {start:.1f} s", flush=True)
        rows.append(run("Ray 2 CPUs", photos, work, ray_address="local"))
        cluster.shutdown()
        print(f"Ray overhead: start {start:.1f} s; {rows[2]['seconds'] - rows[1]['seconds']:+.1f} s on the "
              f"batch against 2 local workers ({rows[2]['photos_per_s'] / rows[1]['photos_per_s']:.2f}x their rate)")
    shutil.rmtree(work, ignore_errors=True)
    cost = rows[0]["per_photo_s"]
    print(f"\nprojection for 1,000,000 photos at {cost:.2f} core-seconds a photo (1 worker's median), "
          "perfect scaling, I/O not counted:")
    for nodes, cores in ((1, 2), (10, 16), (100, 16)):
        hours = 1e6 * cost / (nodes * cores) / 3600
        print(f"  {nodes:4d} node(s) x {cores:2d} cores: {hours:8.1f} h")


if __name__ == "__main__":
    main()
