"""Running one function over many items: in this process, on a local process pool, or as Ray tasks.

:func:`imap` is the one entry point batches and indexing use. It yields ``(i, result)`` as results
come back (``ordered=True``: in the order of the items), keeps at most ``2 * workers`` items in
flight (results hold encoded photos: memory stays bounded whatever the count), and stops early when
``should_stop()`` turns true, cancelling what has not started. The function must be importable by
name (a module-level function): process pools and Ray send it by reference.

Ray (``ray_address``) is optional (``pip install -r requirements-ray.txt``); see :mod:`agent.batch.cluster`.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from agent.batch import cluster
from agent.batch.cluster import environment


def imap(fn: Callable, items: Sequence, *, workers: int = 1, ray_address: str | None = None,
         ordered: bool = False, should_stop: Callable[[], bool] | None = None) -> Iterator[tuple[int, object]]:
    """``(i, fn(items[i]))`` for every item (an exception ``fn`` raised comes back as the result)."""
    stop = should_stop or (lambda: False)
    if ray_address:
        yield from _ray_imap(fn, items, ray_address, workers, ordered, stop)
    elif workers <= 1:
        for i, item in enumerate(items):
            if stop():
                return
            yield i, _call(fn, item)
    else:
        yield from _pool_imap(fn, items, workers, ordered, stop)


THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def one_thread_each() -> None:
    """A pool worker's start: one thread for OpenCV (and, from the environment it was spawned with,
    for numpy's BLAS), as Ray gives a task of one CPU: N workers already keep N cores busy."""
    import cv2

    cv2.setNumThreads(1)


def _call(fn: Callable, item):
    try:
        return fn(item)
    except Exception as exc:  # noqa: BLE001 - one bad item never ends the run; the caller reports it
        return exc


def _pool_imap(fn, items, workers, ordered, stop) -> Iterator[tuple[int, object]]:
    # spawn, not fork: the parent may hold threads (tqdm, a Qt worker pool, torch) that fork copies badly
    ctx = multiprocessing.get_context("spawn")
    # Processes start on the first submits: they inherit one thread each for BLAS (read at import)
    with environment(dict.fromkeys(THREAD_VARIABLES, "1")), \
            ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=one_thread_each) as pool:
        pending: deque[tuple[int, Future]] = deque()
        nxt = 0
        try:
            while nxt < len(items) or pending:
                while nxt < len(items) and len(pending) < 2 * workers and not stop():
                    pending.append((nxt, pool.submit(_call, fn, items[nxt])))
                    nxt += 1
                if not pending:
                    return
                if ordered:
                    done_i, fut = pending.popleft()
                    yield done_i, _result(fut)
                else:
                    wait([f for _, f in pending], return_when=FIRST_COMPLETED)
                    for entry in [e for e in pending if e[1].done()]:
                        pending.remove(entry)
                        yield entry[0], _result(entry[1])
                if stop():
                    return
        finally:
            for _, fut in pending:
                fut.cancel()


def _result(fut: Future):
    try:
        return fut.result()
    except Exception as exc:  # noqa: BLE001 - a worker that died (killed, out of memory)
        return exc


def _ray_imap(fn, items, address, workers, ordered, stop) -> Iterator[tuple[int, object]]:
    ray = cluster.connect(address)
    remote = ray.remote(num_cpus=1, max_retries=1)(_call)
    fn_ref = ray.put(fn)
    window = max(2 * workers, 2 * cluster.cpus(ray))
    pending: deque[tuple[int, object]] = deque()
    nxt = 0
    try:
        while nxt < len(items) or pending:
            while nxt < len(items) and len(pending) < window and not stop():
                pending.append((nxt, remote.remote(fn_ref, items[nxt])))
                nxt += 1
            if not pending:
                return
            if ordered:
                i, ref = pending.popleft()
                yield i, _ray_get(ray, ref)
            else:
                ready, _ = ray.wait([r for _, r in pending], num_returns=1)
                for entry in [e for e in pending if e[1] in ready]:
                    pending.remove(entry)
                    yield entry[0], _ray_get(ray, entry[1])
            if stop():
                return
    finally:
        for _, ref in pending:
            ray.cancel(ref)


def _ray_get(ray, ref):
    try:
        return ray.get(ref)
    except Exception as exc:  # noqa: BLE001 - a task whose worker died twice
        return exc
