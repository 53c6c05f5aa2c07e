"""Ray, when one machine is not enough: joining a cluster, or starting a private one on this machine.

``--ray ADDRESS`` joins a running cluster (``ray start --head`` printed its address; every node must
have Easel and read the input paths, e.g. a shared folder). ``--ray auto`` joins the cluster this
machine belongs to if there is one, else starts a local runtime; ``--ray local`` always starts one.

A local runtime stays on this machine: every Ray process talks on loopback only. Out of the box Ray
(2.60) finds its node address by "connecting" a UDP socket to 8.8.8.8 and, even with usage stats off,
probes cloud metadata (169.254.169.254, metadata.google.internal) from its dashboard process. For a
local start this module sets, for the processes Ray starts only, ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``
(node address = 127.0.0.1), ``RAY_USAGE_STATS_ENABLED=0``, and an HTTP proxy on a closed loopback
port so the metadata probe fails at once on this machine (tests/test_batch_ray.py checks with strace).
"""

from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCAL_ENV = {
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    "RAY_USAGE_STATS_ENABLED": "0",
    "HTTP_PROXY": "http://127.0.0.1:9", "http_proxy": "http://127.0.0.1:9",
    "HTTPS_PROXY": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9",
    "NO_PROXY": "127.0.0.1,localhost,::1", "no_proxy": "127.0.0.1,localhost,::1",
}
_lock = threading.Lock()


@contextmanager
def environment(values: dict[str, str]):
    """``os.environ`` with ``values`` for the block (what processes started in it inherit)."""
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


class RayUnavailable(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached."""


def import_ray(local: bool = False):
    """The ``ray`` module. ``local``: imported (or set, if it was imported before) so that this
    process too takes 127.0.0.1 for the node's address (Ray reads the variable at import)."""
    try:
        with environment(LOCAL_ENV if local else {}):
            import ray
        if local:
            from ray._private import ray_constants

            ray_constants.ENABLE_RAY_CLUSTER = False  # read at each call: the node address is loopback
    except ImportError:
        raise RayUnavailable("Ray is not installed; install the optional extra: "
                             ".venv/bin/pip install -r requirements-ray.txt") from None
    return ray


def connect(address: str = "auto", *, num_cpus: int | None = None):
    """The ``ray`` module, connected: to ``address`` (a cluster), or to a runtime started here
    (``"local"``; ``"auto"`` when no cluster is found). A runtime already connected is reused."""
    local = address == "local" or (address == "auto" and not _cluster_running())
    ray = import_ray(local)
    with _lock:
        if ray.is_initialized():
            return ray
        runtime_env = {"env_vars": {"PYTHONPATH": str(ROOT)}}
        common = dict(include_dashboard=False, log_to_driver=False, configure_logging=False,
                      runtime_env=runtime_env)
        if address not in ("auto", "local"):
            try:
                ray.init(address=address, **common)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise RayUnavailable(f"cannot join the Ray cluster at {address}: {exc}") from None
            return ray
        if not local:
            with environment({"RAY_USAGE_STATS_ENABLED": "0"}):
                ray.init(address="auto", **common)
            return ray
        with environment(LOCAL_ENV):
            ray.init(num_cpus=num_cpus or os.cpu_count() or 1, **common)
        return ray


def _cluster_running() -> bool:
    """Whether ``ray start`` left a cluster address on this machine (or RAY_ADDRESS names one)."""
    if os.environ.get("RAY_ADDRESS"):
        return True
    import tempfile

    return (Path(tempfile.gettempdir()) / "ray" / "ray_current_cluster").is_file()


def cpus(ray) -> int:
    try:
        return max(1, int(ray.cluster_resources().get("CPU", 1)))
    except Exception:  # noqa: BLE001
        return 1


def shutdown() -> None:
    """Stop the runtime this process started or joined (nothing if none)."""
    try:
        import ray
    except ImportError:
        return
    if ray.is_initialized():
        ray.shutdown()
