"""Finished jobs are released: a long session does not keep every worker, its closure and result.

PySide keeps a QRunnable passed to ``QThreadPool.start`` for the pool's lifetime, and a closure over
the worker connected to its own signal is a cycle through Qt that the garbage collector cannot see;
``bench/soak.py --types`` showed one Worker (with its result) kept per chat turn before the fix.
"""

from __future__ import annotations

import gc

import pytest

pytest.importorskip("pytestqt")

from app.workers import Worker, Workers  # noqa: E402


def _live_workers() -> int:
    gc.collect()
    return sum(isinstance(o, Worker) for o in gc.get_objects())


def test_finished_workers_are_released_and_every_slot_still_runs(qtbot):
    workers = Workers()
    before = _live_workers()
    results, finished = [], []
    for i in range(40):
        workers.start(lambda worker, n: [n] * 1000, i, on_result=lambda r: results.append(r[0]),
                      on_finished=lambda: finished.append(1))
        qtbot.waitUntil(lambda: not workers.active, timeout=10_000)
    qtbot.wait(20)
    assert sorted(results) == list(range(40))  # every result and every finished slot arrived
    assert len(finished) == 40
    assert _live_workers() - before <= workers.recent.maxlen


def test_a_failing_job_reports_and_is_released_too(qtbot):
    workers = Workers()
    before = _live_workers()
    errors = []

    def fail(worker):
        raise ValueError("no")

    for _ in range(20):
        workers.start(fail, on_error=errors.append)
        qtbot.waitUntil(lambda: not workers.active, timeout=10_000)
    assert len(errors) == 20 and "no" in errors[0]
    assert _live_workers() - before <= workers.recent.maxlen
