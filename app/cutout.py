"""Background removal with the neural network in a helper process (no Qt in this module).

u2netp, its import (rembg, numba kernels) and its session live in one long-lived child process, so
the GUI process never holds the GIL for them: the GUI thread keeps painting while a cutout runs,
however busy the machine. Only a small copy of the image (at most ``ops.MASK_SIDE`` pixels a
side) goes to the child and a small mask comes back; resizing the mask and compositing run here,
in OpenCV, which releases the GIL. The result is bit for bit what :func:`editor.ops.image_cutout`
makes in-process (the same preprocessing, the same network, the same rounding).
"""

from __future__ import annotations

import threading

import numpy as np

from editor import ops


def _child_mask(small: np.ndarray) -> np.ndarray:
    """In the helper process: u2netp's uint8 mask of a small image."""
    return ops.predict_mask_small(small)


def _child_warm() -> bool:
    _child_mask(np.zeros((8, 8, 3), np.uint8))
    return True


class CutoutProcess:
    """Runs u2netp in a child process started on first use (or by :meth:`warm`)."""

    def __init__(self) -> None:
        self._pool = None  # a ProcessPoolExecutor; multiprocessing is imported on first use, not at start
        self._lock = threading.Lock()

    def _executor(self):
        import concurrent.futures as cf
        import multiprocessing as mp

        with self._lock:
            if self._pool is None:
                self._pool = cf.ProcessPoolExecutor(max_workers=1, mp_context=mp.get_context("spawn"))
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
