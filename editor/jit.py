"""Kernels compiled with numba on their first call (``cache=True``: once per install, then loaded).

A per-pixel loop in numba is one pass over a 12-megapixel photo where the same arithmetic in NumPy
makes several full-size temporaries; numba is already a dependency (editor.fill, rembg). Importing
it costs about a second, so it is imported on the first call, not when the module is.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable

__all__ = ["lazy_njit"]


def lazy_njit(fn: Callable) -> Callable:
    """``fn`` compiled by ``numba.njit(cache=True, nogil=True)`` when first called (thread-safe);
    ``fn`` must live in a module file (numba's cache is kept beside it). Used as a decorator::

        @lazy_njit
        def _grey_kernel(src, out): ...
    """
    lock = threading.Lock()
    compiled: list[Callable] = []

    @functools.wraps(fn)
    def call(*args):
        if not compiled:
            with lock:
                if not compiled:
                    import numba

                    compiled.append(numba.njit(cache=True, nogil=True)(fn))
        return compiled[0](*args)

    call.py_func = fn  # the plain Python function, for reading and for tests
    return call
