"""The Qt GUI of Easel.

PySide6-Essentials is pinned to 6.11.3: 6.12.0 dropped a reference to ``None`` on every void
method call and one to ``True`` on every ``SignalInstance.emit()``, and aborted the process after
about a thousand of either (``tests/test_qt_signals.py`` emits 100,000 of every signal signature
the app declares). Importing this package still probes for the ``None`` bug and guards against it
(see :func:`_guard_none_refcount`), in case another PySide6 is installed.
"""

from __future__ import annotations

import ctypes
import sys


def _guard_none_refcount() -> bool:
    """Keep ``None`` alive despite PySide6-Essentials 6.12.0's refcount bug on Python 3.11.

    Its bindings return ``None`` from every void method (``update()``, ``setText()``,
    ``drawImage()``...) without taking a reference, as if ``None`` were immortal, which it is
    only from Python 3.12. Each such call takes one reference from ``None``; after a few thousand
    calls its count reaches zero and the interpreter aborts ("none_dealloc: deallocating None").
    Measured here: 1000 ``QLabel.setText`` calls lower ``sys.getrefcount(None)`` by 1000.

    If a probe call shows the bug, ``None``'s count is raised by 2**40, which is what Python 3.12
    does to make it immortal; otherwise nothing is done. The real fix is the pin to 6.11.3, which has no such bug.
    """
    if sys.version_info >= (3, 12):
        return False
    from PySide6.QtCore import QObject

    probe = QObject()
    before = sys.getrefcount(None)
    for _ in range(8):
        probe.setObjectName("probe")
    if sys.getrefcount(None) >= before:
        return False
    ctypes.c_ssize_t.from_address(id(None)).value += 1 << 40
    return True


NONE_REFCOUNT_GUARDED = _guard_none_refcount()
