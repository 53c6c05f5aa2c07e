"""Slow work off the GUI thread: a QRunnable with progress, result, error and cancel signals.

Usage (napari's ``thread_worker`` idea, on a QThreadPool)::

    w = workers.start(job, arg, on_result=show, on_error=complain)
    ...
    w.cancel()   # asks the job to stop; a job that cannot stop early has its result ignored

``job(worker, *args)`` runs in a pool thread; it may call ``worker.progress(percent, text)`` and
check ``worker.cancelled``. Signals arrive in the GUI thread (queued connections), so the slots may
touch widgets. A job must not touch widgets or QPixmaps itself (QImage is fine).
"""

from __future__ import annotations

import collections
import contextlib
import os
import sys
import threading
import traceback
import weakref
from collections.abc import Callable

from PySide6.QtCore import QObject, QThreadPool, Signal

WORKER_NICE = 5


def _lower_thread_priority() -> None:
    """Let the GUI thread win the CPU on a busy machine: workers run a little nicer.

    Linux applies ``setpriority`` to a single thread when given its thread id; threads the job
    starts (ONNX Runtime's pool) inherit it. Elsewhere this is a no-op.
    """
    if not sys.platform.startswith("linux"):
        return
    tid = threading.get_native_id()
    with contextlib.suppress(OSError):
        current = os.getpriority(os.PRIO_PROCESS, tid)
        if current < WORKER_NICE:
            os.setpriority(os.PRIO_PROCESS, tid, WORKER_NICE)


class WorkerSignals(QObject):
    progress = Signal(int, str)
    result = Signal(object)
    error = Signal(str)
    finished = Signal()


class Worker:
    """One job: the pool runs ``run`` (a plain callable, not a QRunnable: PySide keeps every
    QRunnable passed to ``QThreadPool.start`` referenced for the pool's lifetime, so a long session
    kept each finished job, its closure and its result; bench/soak.py --types showed one per turn)."""

    def __init__(self, fn: Callable, *args, name: str = "", **kwargs) -> None:
        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.name = name or getattr(fn, "__name__", "task")
        self.signals = WorkerSignals()
        self.cancelled = False
        self.done = False

    def cancel(self) -> None:
        self.cancelled = True

    def progress(self, percent: int, text: str = "") -> None:
        self.signals.progress.emit(int(percent), text)

    def run(self) -> None:
        _lower_thread_priority()
        try:
            try:
                out = self.fn(self, *self.args, **self.kwargs)
            except Exception as exc:  # a failed job reports, it never takes the app down
                detail = traceback.format_exc(limit=3)
                self.signals.error.emit(f"{self.name} failed: {exc}\n{detail}")
            else:
                self.signals.result.emit(out)
            finally:
                self.done = True
                self.signals.finished.emit()
        except RuntimeError:
            # The app closed while this job ran (the window is gone, e.g. quit while the models
            # were still loading): nobody is left to tell, and that is not an error.
            pass


class Workers(QObject):
    """Starts jobs on a thread pool and keeps them alive until they finish."""

    busyChanged = Signal(bool)

    def __init__(self, parent=None, max_threads: int = 2) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(max_threads)
        self.active: list[Worker] = []
        self.recent: collections.deque[Worker] = collections.deque(maxlen=8)

    def start(self, fn: Callable, *args, on_result: Callable | None = None,
              on_error: Callable | None = None, on_progress: Callable | None = None,
              on_finished: Callable | None = None, name: str = "", **kwargs) -> Worker:
        w = Worker(fn, *args, name=name, **kwargs)
        if on_result is not None:
            w.signals.result.connect(on_result)
        if on_error is not None:
            w.signals.error.connect(on_error)
        if on_progress is not None:
            w.signals.progress.connect(on_progress)
        if on_finished is not None:
            w.signals.finished.connect(on_finished)
        # Connected last and through a weak reference: a closure over ``w`` held by ``w``'s own
        # signal is a cycle through Qt the garbage collector cannot see, and kept every finished
        # job (its closure and its result) for the whole session.
        ref = weakref.ref(w)
        w.signals.finished.connect(lambda: self._done(ref()))
        self.active.append(w)
        if len(self.active) == 1:
            self.busyChanged.emit(True)
        self.pool.start(w.run)
        return w

    def _done(self, w: Worker | None) -> None:
        if w is not None and w in self.active:
            self.active.remove(w)
            # Freed a few jobs later, not inside its own signal's delivery.
            self.recent.append(w)
            if not self.active:
                self.busyChanged.emit(False)

    def cancel_all(self) -> None:
        for w in self.active:
            w.cancel()

    def wait(self, msecs: int = -1) -> bool:
        """Block until every job has finished (used at exit and in tests)."""
        return self.pool.waitForDone(msecs)
