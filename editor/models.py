"""Where model files live. Nothing here downloads: a missing file is an error that says how to fix it."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeVar

T = TypeVar("T")

ROOT = Path(__file__).resolve().parent.parent
RESOURCES = ROOT / "resources"


class ModelMissingError(RuntimeError):
    """A model file Easel needs is not installed."""


def models_dir() -> Path:
    """``$EASEL_MODELS`` if set, else ``resources/models`` in the checkout (filled by ``make setup``)."""
    return Path(os.environ.get("EASEL_MODELS", RESOURCES / "models"))


def model_path(name: str) -> Path:
    path = models_dir() / name
    if not path.is_file():
        raise ModelMissingError(
            f"model file {name} is not installed (looked in {path.parent}); "
            "run `make setup` (or `python scripts/fetch_models.py`) to install it. "
            "Easel never downloads models at run time."
        )
    return path


class Lazy(Generic[T]):
    """A model loaded once per process, on first use, by whichever thread asks first.

    ``Lazy(load)`` wraps a function that builds the model; calling the ``Lazy`` returns it, loading it
    under a lock the first time (two threads asking at once load it once). A load that raises leaves
    nothing cached, so the next call tries again (after ``make setup``, say). ``loaded`` tells whether
    a call would return at once, which the app's status line uses; ``reset()`` forgets the model (tests).

    >>> answer = Lazy(lambda: 42)
    >>> answer.loaded, answer(), answer.loaded
    (False, 42, True)
    """

    def __init__(self, load: Callable[[], T]):
        self._load = load
        self._value: T | None = None
        self._lock = threading.Lock()
        self.__doc__ = load.__doc__
        self.__name__ = getattr(load, "__name__", "model")

    def __call__(self) -> T:
        value = self._value
        if value is not None:
            return value
        with self._lock:
            if self._value is None:
                self._value = self._load()
            return self._value

    @property
    def loaded(self) -> bool:
        return self._value is not None

    def reset(self) -> None:
        with self._lock:
            self._value = None


def lazy(load: Callable[[], T]) -> Lazy:
    """Decorator form of :class:`Lazy`: ``@lazy def detector(): ...``."""
    return Lazy(load)
