"""Indexing a library with the reading and perceiving spread over workers (a local process pool or
Ray tasks), and the library database written by one writer: the process that calls
:meth:`agent.search.library.Library.index`, to which only each photo's analysis travels.

    Library(db).index(dirs, analyse=analyser(workers=2))             # a local process pool
    Library(db).index(dirs, analyse=analyser(ray_address="auto"))    # Ray tasks

What lands in the database is what the one-process index writes (same order, same rows, same
embeddings: tests/test_batch_ray.py compares them).
"""

from __future__ import annotations

from collections.abc import Iterator

from agent.batch.pool import imap
from agent.search.library import Analyser, Analysis, analyse_file


def analyse_one(item: tuple[str, bool, int]) -> Analysis:
    """Run in a worker: one photo's analysis, with ``threads`` threads for the models (1 by default,
    as ``main.py index``: on a busy machine more threads per photo index slower)."""
    import cv2
    import torch

    path, ocr, threads = item
    torch.set_num_threads(threads)
    cv2.setNumThreads(threads)
    return analyse_file(path, ocr=ocr)


def analyser(*, workers: int = 2, ray_address: str | None = None, threads: int = 1) -> Analyser:
    """An ``analyse`` for :meth:`Library.index`: the paths' analyses, in order."""

    def analyse(paths: list[str], ocr: bool) -> Iterator[Analysis | BaseException]:
        items = [(p, ocr, threads) for p in paths]
        for _, result in imap(analyse_one, items, workers=workers, ray_address=ray_address, ordered=True):
            yield result

    return analyse
