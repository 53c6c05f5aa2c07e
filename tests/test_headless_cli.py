"""The headless commands never load Qt: a server or a script can run them without a display."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBE = """
import sys
sys.argv = ["main.py", *{argv!r}]
sys.path.insert(0, {root!r})
import main
try:
    main.main({argv!r})
except SystemExit:
    pass
print("QT" if any(m.startswith("PySide6") for m in sys.modules) else "NO-QT")
"""


def qt_loaded(argv: list[str]) -> str:
    out = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv, root=str(ROOT))],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    return out.stdout.strip().splitlines()[-1]


def test_headless_commands_import_no_qt(tmp_path):
    import numpy as np

    from editor.imageio import write_image

    src = write_image(tmp_path / "in.png", np.zeros((8, 8, 3), np.uint8))
    run = ["apply", str(src), "rotate 90", "-o", str(tmp_path / "out.png")]
    for argv in (["apply", "--help"], ["edit", "--help"], ["search", "--help"], ["--help"], run):
        assert qt_loaded(argv) == "NO-QT", argv
    assert (tmp_path / "out.png").exists()
    # the check can fail: the annotator's arguments do load Qt
    assert qt_loaded(["annotate", "--help"]) == "QT"
