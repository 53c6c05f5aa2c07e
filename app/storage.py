"""The profile store as the app uses it: version pixels are written to disk after the turn, not in it.

Writing a 12-megapixel version as a lossless PNG takes about 0.9 s on this machine, more than the
edit itself; inside a chat turn it was most of the time from Return to the new image. Here
:meth:`BackgroundStore.put_pixels` hashes the pixels (the name of the file, needed at once for the
version's row), keeps the array in memory and hands the PNG write to one writer thread. Until the
file exists, :meth:`get_pixels` answers from memory, so nothing in the app can tell the difference.

The cost: a crash within about a second of an edit can lose that version's file (its row says it
exists). Reopening then makes it again (:meth:`editor.store.Store.rebuild`): the edit is replayed on
its parent, an original is read from its source file, and the result is kept only if it is the same
pixels bit for bit. Closing the app waits for the writes (:meth:`flush`). No Qt here: the writer is
a plain thread.
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np

from editor.store import Store, pixel_hash

WRITER_NICE = 10  # lower than the workers: the GUI and the turn come first on a 2-core machine


def _lower_priority() -> None:
    with contextlib.suppress(OSError, AttributeError):
        tid = threading.get_native_id()
        if os.getpriority(os.PRIO_PROCESS, tid) < WRITER_NICE:
            os.setpriority(os.PRIO_PROCESS, tid, WRITER_NICE)


class BackgroundStore(Store):
    """A :class:`editor.store.Store` whose pixel files are written by a background thread."""

    def __init__(self, path: str | os.PathLike | None = None) -> None:
        super().__init__(path)
        self._pending: dict[str, np.ndarray] = {}
        self._futures: dict[str, Future] = {}
        self._lock = threading.Lock()
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="easel-png",
                                          initializer=_lower_priority)
        self.write_errors: list[str] = []

    def put_pixels(self, pixels: np.ndarray) -> str:
        digest = pixel_hash(pixels)
        with self._lock:
            if digest in self._pending:
                return digest
        if self._blob_path(digest).exists():
            return digest
        if pixels.flags.writeable and pixels.flags.owndata and pixels.base is None:
            # A fresh array (an operation's result, a decoded file): take it over read-only rather
            # than copy 36 MB; the document keeps the same read-only array without copying either.
            # Whoever tries to change it later gets an error, never a silently different version.
            pixels.setflags(write=False)
        elif pixels.flags.writeable:  # a view of something that may change: keep a copy
            pixels = pixels.copy()
            pixels.setflags(write=False)
        with self._lock:
            self._pending[digest] = pixels
            self._futures[digest] = self._writer.submit(self._write_png, digest, pixels)
        return digest

    def _write_png(self, digest: str, pixels: np.ndarray) -> None:
        try:
            written = Store.put_pixels(self, pixels)
            if written != digest:  # cannot happen unless pixel_hash changed under us
                raise OSError(f"version {digest} hashed to {written} when written")
        except Exception as exc:  # kept in memory: the session goes on, the error is reported
            self.write_errors.append(f"{digest}: {exc}")
            return
        with self._lock:
            self._pending.pop(digest, None)
            self._futures.pop(digest, None)

    def get_pixels(self, digest: str) -> np.ndarray:
        with self._lock:
            pending = self._pending.get(digest)
        if pending is not None:
            return pending
        return super().get_pixels(digest)

    def pending(self) -> int:
        """How many version files are still to be written."""
        with self._lock:
            return len(self._futures)

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every version file is on disk; False if ``timeout`` seconds were not enough."""
        with self._lock:
            futures = list(self._futures.values())
        for f in futures:
            try:
                f.result(timeout=timeout)
            except TimeoutError:
                return False
        return True

    def close(self) -> None:
        self.flush()
        self._writer.shutdown(wait=True)
        super().close()



def open_store(path: str | os.PathLike | None = None) -> BackgroundStore:
    """The profile store as the app uses it. Its connection (:func:`editor.store.connect`) may be used
    from any thread and waits for other processes' locks; version files are written after the turn."""
    from agent.edits.run import replay
    from editor import traces

    store = BackgroundStore(path)
    # a version file lost in a crash is made again from its parent (an edit of a selection reads
    # the selection's mask, stored beside the versions)
    store.replay = functools.partial(replay, load=store.get_pixels)
    traces.ensure_table(store)
    return store


def json_object(text: str | None) -> dict:
    """A stored JSON object (a turn's data), or {} for none or anything else."""
    import json

    try:
        value = json.loads(text) if text else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
