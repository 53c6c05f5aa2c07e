"""Start the Qt application."""

from __future__ import annotations

import os
import sys
import time


def dark_palette(app) -> None:
    """A neutral dark theme (as in Lightroom, Krita, darktable): colours of the photo read truer."""
    from PySide6.QtGui import QColor, QPalette

    app.setStyle("Fusion")
    p = QPalette()
    base, window, text = QColor(37, 37, 38), QColor(45, 45, 48), QColor(225, 225, 225)
    for role, color in (
        (QPalette.ColorRole.Window, window), (QPalette.ColorRole.WindowText, text),
        (QPalette.ColorRole.Base, base), (QPalette.ColorRole.AlternateBase, window),
        (QPalette.ColorRole.ToolTipBase, window), (QPalette.ColorRole.ToolTipText, text),
        (QPalette.ColorRole.Text, text), (QPalette.ColorRole.Button, window),
        (QPalette.ColorRole.ButtonText, text), (QPalette.ColorRole.Highlight, QColor(61, 122, 191)),
        (QPalette.ColorRole.HighlightedText, QColor("white")), (QPalette.ColorRole.Link, QColor(110, 170, 240)),
        (QPalette.ColorRole.PlaceholderText, QColor(140, 140, 140)),
    ):
        p.setColor(role, color)
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, QColor(120, 120, 120))
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor(120, 120, 120))
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText, QColor(120, 120, 120))
    app.setPalette(p)


def keep_freed_memory() -> bool:
    """Let glibc reuse freed memory for the next big image instead of unmapping it.

    By default every array over a few megabytes is a fresh ``mmap`` and is unmapped when freed,
    so each 12-megapixel version, copy and screen copy of a turn touches never-used pages: the
    kernel zeroes them one page fault at a time. Measured on this 2-core machine under load: a 36 MB
    copy 40 ms, a screen copy 150 ms; with the memory kept and reused, 20 ms and 32 ms. One arena
    for all threads, so what a worker frees, the next worker reuses. The price: the process keeps
    its peak heap instead of returning it (tens of megabytes a version; the version caches bound it).
    Linux/glibc only; elsewhere nothing changes.
    """
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL("libc.so.6")
        m_trim_threshold, m_mmap_threshold, m_arena_max = -1, -3, -8
        ok = libc.mallopt(m_arena_max, 1) and libc.mallopt(m_mmap_threshold, 1 << 30)
        return bool(ok and libc.mallopt(m_trim_threshold, 1 << 30))
    except (OSError, AttributeError):
        return False


def create_app():
    from PySide6.QtWidgets import QApplication

    keep_freed_memory()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Easel")
    app.setOrganizationName("Easel")
    dark_palette(app)
    return app


def process_age() -> float:
    """Seconds since this process started (interpreter start-up included), from /proc on Linux."""
    try:
        with open("/proc/self/stat") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        return uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return time.perf_counter() - _IMPORTED + 0.0


_IMPORTED = time.perf_counter()


class StartupTrace:
    """With ``EASEL_STARTUP_TRACE=1``: print when the window, the photo and the models were ready.

    Lines ``easel-startup <event> <seconds since the process started>`` on stderr, read by
    ``bench/gui_latency.py --startup``. ``EASEL_QUIT_WHEN_READY=1`` quits once all are ready.
    """

    def __init__(self, app, window, expect_photo: bool) -> None:
        self.on = os.environ.get("EASEL_STARTUP_TRACE") == "1"
        self.quit = os.environ.get("EASEL_QUIT_WHEN_READY") == "1"
        self.app, self.window = app, window
        self.waiting = {"window-shown", "models-ready"} | ({"photo-shown"} if expect_photo else set())
        if not (self.on or self.quit):
            return
        from PySide6.QtCore import QObject

        trace = self

        class FirstPaint(QObject):
            def __init__(self, name: str, condition) -> None:
                super().__init__()
                self.name, self.condition = name, condition

            def eventFilter(self, obj, event):  # noqa: N802 (Qt's name)
                from PySide6.QtCore import QEvent

                if event.type() == QEvent.Type.Paint and self.condition():
                    obj.removeEventFilter(self)
                    trace.mark(self.name)
                return False

        self.filters = [FirstPaint("window-shown", lambda: True),
                        FirstPaint("photo-shown", lambda: window.canvas.has_image())]
        window.installEventFilter(self.filters[0])
        window.canvas.viewport().installEventFilter(self.filters[1])
        window.controller.modelsReady.connect(lambda: self.mark("models-ready"))

    def mark(self, name: str, secs: float | None = None) -> None:
        if self.on:
            secs = process_age() if secs is None else secs
            print(f"easel-startup {name} {secs:.3f}", file=sys.stderr, flush=True)
        self.waiting.discard(name)
        if self.quit and not self.waiting:
            self.window.ask = lambda *a: True
            from PySide6.QtCore import QTimer

            QTimer.singleShot(200, self.window.close)


# What Qt's xcb platform plugin loads, and the Debian/Ubuntu package of each (as .ci/run installs
# them). Qt aborts with a terse message when one is missing; the app checks first and names them.
XCB_LIBRARIES = {
    "libxcb-cursor.so.0": "libxcb-cursor0", "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1", "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-xinerama.so.0": "libxcb-xinerama0", "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0", "libxcb-image.so.0": "libxcb-image0",
    "libxkbcommon.so.0": "libxkbcommon0", "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libEGL.so.1": "libegl1", "libGL.so.1": "libgl1", "libfontconfig.so.1": "libfontconfig1",
    "libdbus-1.so.3": "libdbus-1-3",
}


def missing_for_window(environ=None, load=None) -> str | None:
    """Why the window cannot open here, in words with the fix; None when it can (or cannot tell).

    Checked before Qt starts: a missing display or library makes Qt abort the process.
    """
    import ctypes

    env = os.environ if environ is None else environ
    platform = env.get("QT_QPA_PLATFORM", "")
    if not sys.platform.startswith("linux") or (platform and not platform.startswith("xcb")):
        return None  # offscreen, wayland, ...: Qt's own messages are clear enough
    if not env.get("DISPLAY"):
        if env.get("WAYLAND_DISPLAY") and not platform:
            return None
        return ("easel: there is no display to open the window on (DISPLAY is not set).\n"
                "  Run it from a desktop session, or under a virtual screen: xvfb-run -a make run")
    load = load or ctypes.CDLL
    missing = []
    for soname, package in XCB_LIBRARIES.items():
        try:
            load(soname)
        except OSError:
            missing.append(package)
    if missing:
        return ("easel: the window cannot open: Qt's X11 (xcb) plugin needs libraries that are not "
                "installed.\n  On Debian or Ubuntu: sudo apt-get install " + " ".join(missing))
    return None


def run_app(image: str | None = None) -> int:
    """The window first, then everything heavy in workers.

    On a 2-core machine the window is up in about a second: Qt, the widgets and the small parts of
    agent/ and editor/ they need. The command model, PyTorch and Transformers load in a worker
    (Controller.load_models) while the photo given on the command line opens in another; requests
    typed meanwhile wait and are answered when the model is ready.
    """
    problem = missing_for_window()
    if problem:
        print(problem, file=sys.stderr)
        return 3
    early = [("python-and-qt-imported", process_age())]
    app = create_app()
    import cv2

    cv2.setNumThreads(1)  # see app.loading.preload_libraries: workers, not OpenCV's pool, use the cores
    early.append(("app-created", process_age()))
    from app.main_window import MainWindow

    early.append(("window-imports-done", process_age()))
    window = MainWindow()
    early.append(("window-built", process_age()))
    trace = StartupTrace(app, window, expect_photo=bool(image))
    for name, secs in early:
        trace.mark(name, secs)
    window.show()
    if image:
        window.open_path(image)
    else:
        window.offer_restore()
    app.trace = trace  # kept alive as long as the app
    return app.exec()
