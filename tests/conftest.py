from __future__ import annotations

import socket
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CAISE = ROOT.parent / "shared" / "data" / "caise"


@pytest.fixture(autouse=True)
def _profile_in_tmp(tmp_path, monkeypatch):
    """Databases and settings of every test go to its own tmp_path, never the user's profile."""
    monkeypatch.setenv("EASEL_HOME", str(tmp_path / "profile"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


class NetworkBlocked(RuntimeError):
    pass


@pytest.fixture
def no_network(monkeypatch):
    """Fail loudly if anything tries to open a network connection (loopback excepted)."""
    attempts: list = []

    def guard(self, address, *args, **kwargs):
        host = address[0] if isinstance(address, tuple) else address
        if self.family == socket.AF_UNIX or host in ("127.0.0.1", "::1", "localhost"):
            return real_connect(self, address, *args, **kwargs)
        attempts.append(address)
        raise NetworkBlocked(f"network access attempted: {address}")

    def guard_dns(host, *args, **kwargs):
        if host in ("127.0.0.1", "::1", "localhost", None):
            return real_getaddrinfo(host, *args, **kwargs)
        attempts.append(host)
        raise NetworkBlocked(f"DNS lookup attempted: {host}")

    real_connect = socket.socket.connect
    real_getaddrinfo = socket.getaddrinfo
    monkeypatch.setattr(socket.socket, "connect", guard)
    monkeypatch.setattr(socket.socket, "connect_ex", guard)
    monkeypatch.setattr(socket, "getaddrinfo", guard_dns)
    yield attempts
    assert not attempts, f"network access attempted: {attempts}"


@pytest.fixture(scope="session")
def astronaut() -> np.ndarray:
    from skimage import data

    return data.astronaut()


@pytest.fixture(scope="session")
def coffee() -> np.ndarray:
    from skimage import data

    return data.coffee()


@pytest.fixture
def rgb_small() -> np.ndarray:
    rng = np.random.default_rng(0)
    return rng.integers(0, 256, (7, 9, 3), dtype=np.uint8)


def missing_shared_data(what: str) -> None:
    """Skip a test whose ../shared data is not beside this checkout, except in CI, which has it:
    there a missing file is a failure, not a silent skip."""
    import os

    if os.environ.get("CI"):
        pytest.fail(f"{what} is missing, and CI runs with ../shared beside the checkout")
    pytest.skip(f"{what} is not beside this checkout")


def fake_detector(monkeypatch, dets) -> None:
    """The object finder of agent.edits.objects seeing ``dets`` (Detections, kept above the score
    asked for), each object masked as its box: tests of which one is edited, not of the models."""
    from agent.edits import objects

    monkeypatch.setattr(objects, "detect", lambda rgb, min_score=0.3: [d for d in dets if d.score >= min_score])
    monkeypatch.setattr(objects, "look_closer", lambda rgb, found, **_: list(found))

    def box_mask(pixels, box):
        m = np.zeros(pixels.shape[:2], bool)
        m[box[1]:box[3], box[0]:box[2]] = True
        return m

    monkeypatch.setattr(objects, "object_mask", box_mask)


def dark_figure_detector(monkeypatch, *, head_short: bool = False) -> None:
    """The detector (under ``agent.perception.things``, the closer look's tiles too) seeing each
    dark figure (all channels under 50) at least 8% of the height of what it is shown, as a person;
    ``head_short``: on a picture over 300 pixels tall its box is a fifth of its height short at the
    top, as the detector's boxes of small people are."""
    import cv2

    from agent.perception import things
    from agent.perception.models import Detection

    def seen(pixels, min_score=0.4):
        _, _, stats, _ = cv2.connectedComponentsWithStats((pixels.max(axis=2) < 50).astype(np.uint8))
        short = head_short and pixels.shape[0] > 300
        return [Detection("person", 0.8, (int(x), int(y + (h // 5 if short else 0)), int(x + w), int(y + h)))
                for x, y, w, h, _ in stats[1:] if h >= 0.08 * pixels.shape[0]]

    monkeypatch.setattr(things, "detect_objects", seen)


def box_hole(pixels: np.ndarray, found: list) -> tuple[np.ndarray, np.ndarray]:
    """A stand-in for :func:`agent.edits.objects.hole_for`: the first match's first box is the hole,
    nothing is kept."""
    hole = np.zeros(pixels.shape[:2], bool)
    x1, y1, x2, y2 = found[0].boxes[0]
    hole[y1:y2, x1:x2] = True
    return hole, np.zeros_like(hole)


def fake_scene(monkeypatch, dets, names):
    """The detector finds ``dets`` and the caption's naming calls them ``names`` ((said, noun,
    confidence) each), whatever the pixels."""
    from agent.edits import objects, removal
    from agent.perception import naming
    from agent.perception.models import Detection

    found = [Detection(*d) for d in dets]
    monkeypatch.setattr(objects, "detect", lambda rgb, min_score=0.3: [d for d in found if d.score >= min_score])
    monkeypatch.setattr(removal, "detect", lambda rgb, min_score=0.3: [d for d in found if d.score >= min_score])
    named = {d.box: naming.Named(noun, said, None, "classifier", conf, said) for d, (said, noun, conf) in zip(found, names)}
    monkeypatch.setattr(naming, "name_objects", lambda rgb, ds, context=(): [named[d.box] for d in ds])
