"""A recipe applied to many photos: ``main.py batch RECIPE INPUTS... -o OUTDIR [--workers N] [--ray ...]``.

- Outputs go to ``OUTDIR`` under each input's path relative to the inputs' common folder, in the
  input's format (``fmt`` changes it), with its EXIF and ICC profile. An original is never written
  over: an output path that is an input, or any file that exists, is not written.
- Resumable: an output that exists is a photo done by an earlier run and is skipped. Outputs are
  written by this process only, atomically (:func:`editor.files.write_atomic`: a temporary file,
  then a rename), so a kill leaves whole outputs or none, never half of one.
- Workers (a local process pool, or Ray tasks) read a photo, run the recipe
  (:func:`agent.batch.recipes.apply`: things named are found again in each photo) and send back the
  encoded file; this process writes it and one JSON line of the report: input, output, status
  (``done``, ``skipped``, ``failed``), the commands run, those not applied and why, seconds.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from agent.batch.pool import imap
from agent.batch.recipes import Recipe, apply
from editor.files import OutputError, check_not_protected, write_atomic
from editor.imageio import FORMATS, SUFFIX_FORMAT, ImageFileError, encode_image, read_image, strip_location

REPORT_NAME = "easel-batch.jsonl"


@dataclass(frozen=True)
class Job:
    input: str
    output: str
    commands: tuple[str, ...]
    quality: int = 95


@dataclass
class Summary:
    total: int = 0
    done: int = 0
    skipped: int = 0  # outputs already there (an earlier run)
    failed: int = 0  # unreadable inputs, workers that died
    incomplete: int = 0  # done, but some command could not apply
    stopped: bool = False
    seconds: float = 0.0
    report: str = ""
    peak_rss_mb: float = 0.0  # the largest worker's peak resident memory

    def text(self) -> str:
        parts = [f"{self.done} done", f"{self.skipped} skipped (already there)", f"{self.failed} failed"]
        if self.incomplete:
            parts.append(f"{self.incomplete} with commands that could not apply (see the report)")
        left = self.total - self.done - self.skipped - self.failed
        if self.stopped and left:
            parts.append(f"{left} not started (stopped; run again to resume)")
        return f"{', '.join(parts)} of {self.total} photos in {self.seconds:.1f} s; report: {self.report}"


@dataclass
class Plan:
    jobs: list[Job] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (input, output) already done


class BatchError(ValueError):
    """Inputs or an output folder a batch cannot use (said before any photo is touched)."""


def photos_in(inputs: Iterable[str | os.PathLike]) -> list[Path]:
    """The image files named, and those under the folders named (recursively), in order."""
    out: list[Path] = []
    for item in inputs:
        p = Path(item).expanduser()
        if p.is_dir():
            out += sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in SUFFIX_FORMAT
                          and not any(part.startswith(".") for part in f.relative_to(p).parts))
        elif p.is_file():
            out.append(p)
        else:
            raise BatchError(f"{p}: no such file or folder")
    return list(dict.fromkeys(out))


def plan(recipe: Recipe, inputs: Iterable[str | os.PathLike], outdir: str | os.PathLike, *,
         fmt: str | None = None, quality: int = 95) -> Plan:
    """The jobs of a batch; outputs that exist are left out (done by an earlier run)."""
    files = photos_in(inputs)
    if not files:
        raise BatchError("no photos to edit")
    outdir = Path(outdir).expanduser()
    if outdir.exists() and not outdir.is_dir():
        raise BatchError(f"{outdir} is a file; -o names a folder for the outputs")
    check_not_protected(outdir)
    suffix = None
    if fmt:
        suffix = "." + fmt.lower().lstrip(".")
        if suffix not in SUFFIX_FORMAT:
            raise BatchError(f"unknown format {fmt!r}; use one of "
                             + ", ".join(s.lstrip(".") for ss in FORMATS.values() for s in ss))
    resolved = [f.resolve() for f in files]
    base = Path(os.path.commonpath([str(f.parent) for f in resolved]))
    originals = set(resolved)
    result = Plan()
    for f in resolved:
        if f.suffix.lower() not in SUFFIX_FORMAT:
            raise BatchError(f"{f}: not a photo Easel can write back ({f.suffix or 'no suffix'})")
        out = outdir / f.relative_to(base)
        if suffix:
            out = out.with_suffix(suffix)
        if out.resolve() in originals:
            raise BatchError(f"{out} would replace the original {f}; choose another output folder")
        if out.exists():
            result.skipped.append((str(f), str(out)))
        else:
            result.jobs.append(Job(str(f), str(out), tuple(recipe.commands), quality))
    return result


def process(job: Job) -> dict:
    """Run in a worker: read ``job.input``, apply the commands, encode in the output's format with
    the input's EXIF and ICC. Writes nothing; the bytes go back to the one writer."""
    t0 = time.perf_counter()
    line = {"input": job.input, "output": job.output}
    try:
        img = read_image(job.input)
        done = apply(list(job.commands), img.pixels)
        meta = strip_location(img.meta) if "remove_location" in done.run else img.meta  # no GPS when asked
        data = encode_image(done.pixels, SUFFIX_FORMAT[Path(job.output).suffix.lower()], meta=meta,
                            quality=job.quality)
    except (ImageFileError, OSError, MemoryError) as exc:
        line.update(status="failed", error=str(exc), commands_run=[], not_applied=[])
        data = None
    else:
        line.update(status="done", commands_run=done.run, not_applied=done.not_applied)
        if done.notes:
            line["notes"] = done.notes
    line["seconds"] = round(time.perf_counter() - t0, 3)
    line["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    line["pid"] = os.getpid()
    return {"line": line, "data": data}


def run_batch(recipe: Recipe, inputs: Iterable[str | os.PathLike], outdir: str | os.PathLike, *,
              workers: int = 1, ray_address: str | None = None, fmt: str | None = None,
              quality: int = 95, report: str | os.PathLike | None = None, progress: bool = True,
              on_progress: Callable[[int, int, dict], None] | None = None,
              should_stop: Callable[[], bool] | None = None) -> Summary:
    """Apply ``recipe`` to every photo of ``inputs``; see the module docstring.

    ``on_progress(done, total, line)`` is called after each photo (a window's progress bar), and
    ``should_stop()`` ends the run after the photos under way (Stop; run again to resume).
    """
    t0 = time.perf_counter()
    work = plan(recipe, inputs, outdir, fmt=fmt, quality=quality)
    outdir = Path(outdir).expanduser()
    outdir.mkdir(parents=True, exist_ok=True)
    report_path = Path(report) if report else outdir / REPORT_NAME
    summary = Summary(total=len(work.jobs) + len(work.skipped), skipped=len(work.skipped),
                      report=str(report_path))
    bar = _bar(summary.total, progress)
    bar.update(summary.skipped)
    n = summary.skipped
    with open(report_path, "a", encoding="utf-8") as rep:
        for inp, out in work.skipped:
            _log(rep, {"input": inp, "output": out, "status": "skipped", "reason": "the output exists "
                       "(done by an earlier run)", "commands_run": [], "not_applied": [], "seconds": 0})
        for i, result in imap(process, work.jobs, workers=workers, ray_address=ray_address,
                              should_stop=should_stop):
            line = _finish(work.jobs[i], result)
            if line["status"] == "done":
                summary.done += 1
                summary.incomplete += bool(line["not_applied"])
            else:
                summary.failed += 1
            summary.peak_rss_mb = max(summary.peak_rss_mb, line.get("peak_rss_mb", 0.0))
            _log(rep, line)
            n += 1
            bar.update(1)
            if on_progress is not None:
                on_progress(n, summary.total, line)
    bar.close()
    summary.stopped = n < summary.total
    summary.seconds = time.perf_counter() - t0
    return summary


def _finish(job: Job, result) -> dict:
    """Write a worker's output (atomically, never over an existing file) and return its report line."""
    if isinstance(result, BaseException):
        return {"input": job.input, "output": job.output, "status": "failed",
                "error": f"{type(result).__name__}: {result}", "commands_run": [], "not_applied": [],
                "seconds": 0}
    line = result["line"]
    if result["data"] is not None:
        try:
            Path(job.output).parent.mkdir(parents=True, exist_ok=True)
            write_atomic(job.output, result["data"], overwrite=False)
        except (OutputError, OSError) as exc:
            line.update(status="failed", error=str(exc))
    return line


def _log(rep, line: dict) -> None:
    rep.write(json.dumps(line) + "\n")
    rep.flush()


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def _bar(total: int, enabled: bool):
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit="photo", file=sys.stderr, desc="batch")
