"""Background removal with the neural network in a helper process (no Qt in this module).

u2netp, its import (rembg, numba kernels) and its session live in one long-lived child process, so
the GUI process never holds the GIL for them: the GUI thread keeps painting while a cutout runs,
however busy the machine. Only a small copy of the image (at most ``ops.MASK_SIDE`` pixels a
side) goes to the child and a small mask comes back; resizing the mask and compositing run here,
in OpenCV, which releases the GIL. The result is bit for bit what :func:`editor.ops.image_cutout`
makes in-process (the same preprocessing, the same network, the same rounding).

The child dies with the window however the window dies (issue 32 found 630-840 MB orphans alive
half an hour after killed windows): on Linux it asks the kernel for SIGKILL when its parent goes
(``prctl(PR_SET_PDEATHSIG)``; only when the pool is started from the main thread, because the
kernel ties that signal to the *thread* that forked), and a watchdog thread in it exits within
:data:`WATCHDOG_S` once its parent process is gone. Each child leaves a pidfile in
``<profile>/run/``; the next start kills children whose window is gone (:func:`reap_stale`).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

import numpy as np

from editor import ops
from editor.files import default_profile_dir, process_alive

WATCHDOG_S = 0.5
PR_SET_PDEATHSIG = 1


def run_dir() -> Path:
    return default_profile_dir() / "run"


def _start_time(pid: int) -> str | None:
    """The kernel's start time of ``pid`` (tells a process from a later one with the same id)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def _die_with_parent(parent: int, pidfile: str, deathsig: bool) -> None:
    """In the helper process, first thing: die when ``parent`` does."""
    if deathsig and sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):  # a libc without prctl: the watchdog still works
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(0)
    with contextlib.suppress(OSError):
        Path(pidfile).write_text(json.dumps({"pid": os.getpid(), "parent": parent,
                                             "start": _start_time(os.getpid())}))

    def watch() -> None:
        while True:
            time.sleep(WATCHDOG_S)
            if os.getppid() != parent:
                with contextlib.suppress(OSError):
                    os.unlink(pidfile)
                os._exit(0)

    threading.Thread(target=watch, daemon=True, name="parent-watchdog").start()


def reap_stale(folder: Path | None = None) -> int:
    """Kill helper processes left by windows that are gone; returns how many were killed.

    A pidfile names the helper, its parent and its start time; a helper is killed only if the
    parent is dead and the process with that id started at the recorded time (the same process).
    """
    folder = run_dir() if folder is None else folder
    killed = 0
    for f in folder.glob("cutout-*.pid"):
        try:
            info = json.loads(f.read_text())
            pid, parent, start = int(info["pid"]), int(info["parent"]), info.get("start")
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if process_alive(parent) and _start_time(parent) is not None:
            continue  # its window still runs
        if process_alive(pid) and start is not None and _start_time(pid) == start:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                killed += 1
        with contextlib.suppress(OSError):
            f.unlink()
    return killed


def _child_mask(small: np.ndarray) -> np.ndarray:
    """In the helper process: u2netp's uint8 mask of a small image."""
    return ops.predict_mask_small(small)


def _child_warm() -> bool:
    _child_mask(np.zeros((8, 8, 3), np.uint8))
    return True


class CutoutProcess:
    """Runs u2netp in a child process started on first use (or by :meth:`warm`)."""

    def __init__(self, run_folder: Path | None = None) -> None:
        self._pool = None  # a ProcessPoolExecutor; multiprocessing is imported on first use, not at start
        self._lock = threading.Lock()
        self.run_folder = run_dir() if run_folder is None else run_folder
        with contextlib.suppress(OSError):
            reap_stale(self.run_folder)  # helpers of windows killed earlier

    def _executor(self):
        import concurrent.futures as cf
        import multiprocessing as mp

        with self._lock:
            if self._pool is None:
                with contextlib.suppress(OSError):
                    self.run_folder.mkdir(parents=True, exist_ok=True)
                pidfile = self.run_folder / f"cutout-{os.getpid()}-{time.monotonic_ns()}.pid"
                deathsig = threading.current_thread() is threading.main_thread()
                self._pool = cf.ProcessPoolExecutor(
                    max_workers=1, mp_context=mp.get_context("spawn"), initializer=_die_with_parent,
                    initargs=(os.getpid(), str(pidfile), deathsig))
            return self._pool

    def _reset(self) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def warm(self) -> bool:
        """Start the child and load the network there (blocks the calling worker, not the GUI)."""
        from concurrent.futures.process import BrokenProcessPool

        try:
            return self._executor().submit(_child_warm).result()
        except BrokenProcessPool:
            self._reset()
            raise

    def mask(self, image: np.ndarray) -> np.ndarray:
        """The subject mask at full resolution, uint8 (as ``ops._predict_mask`` makes it)."""
        from concurrent.futures.process import BrokenProcessPool

        small = ops.mask_input(image)
        try:
            m = self._executor().submit(_child_mask, small).result()
        except BrokenProcessPool:  # the child died (out of memory?): once more, in this process
            self._reset()
            m = _child_mask(small)
        return ops.upscale_mask(m, image.shape)

    def cutout(self, image: np.ndarray) -> np.ndarray:
        """:func:`editor.ops.image_cutout` with the network run in the helper process."""
        ops.check_image(image)
        mask = self.mask(image).astype(np.float32) / 255.0
        return ops.image_cutout(image, mask=mask)

    def shutdown(self) -> None:
        self._reset()
