"""Settings in QSettings, recent files, and the crash marker that lets the next start restore a session.

Settings live in ``$EASEL_HOME/settings.ini`` when ``EASEL_HOME`` is set (tests set it to a tmp
folder, so they never read or write the user's settings), else in Qt's native place for
"Easel/Easel".
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from PySide6.QtCore import QSettings

from editor.files import process_alive, write_atomic

MAX_RECENT = 10


def make_settings(path: str | os.PathLike | None = None) -> QSettings:
    if path is None and os.environ.get("EASEL_HOME"):
        path = Path(os.environ["EASEL_HOME"]) / "settings.ini"
    if path is not None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        return QSettings(str(path), QSettings.Format.IniFormat)
    return QSettings("Easel", "Easel")


class AppSettings:
    """Typed access to the few settings Easel keeps."""

    def __init__(self, qsettings: QSettings | None = None) -> None:
        self.q = qsettings or make_settings()

    def _get(self, key: str, default, kind):
        value = self.q.value(key, default)
        try:
            if kind is bool:
                return value if isinstance(value, bool) else str(value).lower() in ("1", "true", "yes")
            return kind(value)
        except (TypeError, ValueError):
            return default

    @property
    def jpeg_quality(self) -> int:
        return min(100, max(1, self._get("export/jpeg_quality", 92, int)))

    @jpeg_quality.setter
    def jpeg_quality(self, value: int) -> None:
        self.q.setValue("export/jpeg_quality", int(value))

    @property
    def preload_models(self) -> bool:
        """Load the command model and warm up background removal at start (in a worker)."""
        return self._get("models/preload", True, bool)

    @preload_models.setter
    def preload_models(self, value: bool) -> None:
        self.q.setValue("models/preload", bool(value))

    @property
    def speaker_phrasing(self) -> bool:
        """Phrase explanations with the learned relational speaker (else the engine's sentences)."""
        return self._get("explain/speaker", False, bool)

    @speaker_phrasing.setter
    def speaker_phrasing(self, value: bool) -> None:
        self.q.setValue("explain/speaker", bool(value))

    @property
    def last_dir(self) -> str:
        return str(self.q.value("files/last_dir", "") or "")

    @last_dir.setter
    def last_dir(self, value: str) -> None:
        self.q.setValue("files/last_dir", value)

    def recent_files(self) -> list[str]:
        value = self.q.value("files/recent", [])
        if isinstance(value, str):
            value = [value] if value else []
        return [str(v) for v in (value or [])]

    def add_recent(self, path: str) -> list[str]:
        path = str(Path(path).resolve())
        files = [path] + [p for p in self.recent_files() if p != path]
        self.q.setValue("files/recent", files[:MAX_RECENT])
        return files[:MAX_RECENT]

    def remove_recent(self, path: str) -> None:
        self.q.setValue("files/recent", [p for p in self.recent_files() if p != path])

    def sync(self) -> None:
        self.q.sync()


class SessionMarker:
    """A small file that exists while Easel runs; left behind, it means the last run crashed.

    It names the open document, so the next start can offer to bring that session back.
    """

    def __init__(self, folder: str | os.PathLike) -> None:
        self.path = Path(folder) / "session.lock"

    def stale(self) -> dict | None:
        """The marker of a run that did not exit cleanly (its process is gone), else ``None``."""
        try:
            info = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return None
        if not isinstance(info, dict) or process_alive(int(info.get("pid", -1))):
            return None
        return info

    def write(self, document_id: str | None) -> None:
        info = {"pid": os.getpid(), "document_id": document_id, "time": time.time()}
        write_atomic(self.path, json.dumps(info), overwrite=True, checked=True)

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)
