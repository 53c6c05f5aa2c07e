"""Keep every bundled library off the network: switches set before any of them is loaded.

onnxruntime (rembg's u2netp, RapidOCR) ships Microsoft's 1DS telemetry on Linux: without
``ORT_DISABLE_TELEMETRY`` its first session resolved ``mobile.events.data.microsoft.com`` (DNS
queries seen with strace) and wrote a device id and an event database to
``~/.cache/Microsoft/DeveloperTools/.onnxruntime``. The variable is read when onnxruntime starts, so it
is set when this package is imported (``editor`` comes before anything that loads a model) and
again at each place that loads one. The Hugging Face switches make a missing local file an error
instead of a download attempt.
"""

from __future__ import annotations

import os

OFFLINE_ENV = {
    "ORT_DISABLE_TELEMETRY": "1",
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "HF_DATASETS_OFFLINE": "1",
    "DO_NOT_TRACK": "1",
}


def stay_offline() -> None:
    """Set the switches in this process's environment (inherited by the processes it starts)."""
    os.environ.update(OFFLINE_ENV)


def onnxruntime():
    """``import onnxruntime`` with its telemetry off (the variable, and the API call for a module
    some other code imported first)."""
    stay_offline()
    import onnxruntime as ort

    ort.disable_telemetry_events()
    return ort
