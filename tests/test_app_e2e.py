"""The end-to-end script under a real X server (Xvfb): a scripted conversation and a screenshot."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="xvfb-run is not installed (apt-get install xvfb)")
def test_scripted_conversation_under_xvfb_saves_a_real_screenshot(tmp_path):
    out = tmp_path / "shot.png"
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY")}
    env["EASEL_HOME"] = str(tmp_path / "profile")
    env.setdefault("OMP_NUM_THREADS", "1")
    proc = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 1600x1000x24", sys.executable,
         str(ROOT / "tests" / "e2e_screenshot.py"), str(out)],
        capture_output=True, text=True, timeout=120, env=env, cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Cropped to" in proc.stdout and "Undid" in proc.stdout
    img = np.asarray(Image.open(out).convert("RGB"))
    h, w = img.shape[:2]
    assert w >= 1200 and h >= 700
    assert img.std() > 30  # not a blank or single-colour window
    colours = np.unique(img[::4, ::4].reshape(-1, 3), axis=0)
    assert len(colours) > 2000  # a photo is on screen, not just flat widgets
    # the photo's orange suit is in the canvas area (the middle of the window)
    mid = img[:, w // 4 : 3 * w // 4].reshape(-1, 3).astype(int)
    orange = (mid[:, 0] > 180) & (mid[:, 1] > 60) & (mid[:, 1] < 150) & (mid[:, 2] < 110)
    assert orange.mean() > 0.05


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="xvfb-run is not installed (apt-get install xvfb)")
def test_first_minute_under_xvfb_request_typed_while_loading_is_answered(tmp_path):
    """The real start-up path on a real X server: a request typed while the command model loads is
    shown as waiting, then answered by the model; reopening shows the typed words; a search shows
    thumbnails and clicking one opens it (tests/e2e_startup.py)."""
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY")}
    env.setdefault("OMP_NUM_THREADS", "1")
    proc = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 1600x1000x24", sys.executable,
         str(ROOT / "tests" / "e2e_startup.py"), str(tmp_path / "shots")],
        capture_output=True, text=True, timeout=400, env=env, cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    assert "(typed during loading)" in proc.stdout  # the model starts loading once the photo is shown
    assert "[adjust_attr brightness" in proc.stdout and "the typed words are there" in proc.stdout
    assert "clicked a thumbnail" in proc.stdout
    shot = np.asarray(Image.open(tmp_path / "shots" / "loading.png").convert("RGB"))
    assert shot.shape[1] >= 1200 and shot.std() > 30  # a real window with the photo, not a blank
