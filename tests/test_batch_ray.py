"""Batches and indexing as Ray tasks on a local Ray runtime started in the test: the outputs and the
library rows are the local run's, bit for bit, and Ray talks on loopback only.

Ray is an optional extra (requirements-ray.txt); `make test` installs it, so in CI a missing Ray is a
failure, not a skip.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

from tests.conftest import ROOT

if os.environ.get("CI") != "true" and importlib.util.find_spec("ray") is None:
    pytest.skip("Ray is not installed (pip install -r requirements-ray.txt)", allow_module_level=True)

from agent.batch import cluster  # noqa: E402
from agent.batch.batch import run_batch  # noqa: E402
from agent.batch.recipes import Recipe  # noqa: E402
from tests.test_batch import RECIPE, _photos  # noqa: E402

SAMPLES = ["chelsea.jpg", "coffee.jpg", "rocket.jpg"]


@pytest.fixture(scope="module")
def ray_runtime():
    ray = cluster.connect("local", num_cpus=2)
    yield ray
    cluster.shutdown()


def test_ray_batch_writes_the_local_runs_bytes(ray_runtime, tmp_path, astronaut):
    photos = _photos(tmp_path / "in", astronaut)
    local = run_batch(Recipe("r", RECIPE), [photos], tmp_path / "local", workers=1, progress=False)
    remote = run_batch(Recipe("r", RECIPE), [photos], tmp_path / "ray", ray_address="local", progress=False)
    assert local.done == remote.done == 3
    pids = {__import__("json").loads(x)["pid"] for x in (tmp_path / "ray" / "easel-batch.jsonl").read_text().splitlines()}
    assert os.getpid() not in pids  # the photos were edited in Ray's workers, not here
    for name in ("a.jpg", "b.png", "sub/c.jpg"):
        assert (tmp_path / "local" / name).read_bytes() == (tmp_path / "ray" / name).read_bytes()


def test_ray_index_writes_the_local_runs_rows(ray_runtime, tmp_path):
    import torch

    from agent.batch.index import analyser
    from agent.search.library import Library

    photos = tmp_path / "photos"
    photos.mkdir()
    for name in SAMPLES:
        shutil.copy(ROOT / "resources" / "library" / name, photos / name)
    shutil.copy(photos / SAMPLES[0], photos / "copy.jpg")  # a copy: takes its twin's row, as locally
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as `main.py index` and the workers: the same arithmetic
    try:
        local = Library(tmp_path / "local.db")
        local.index([photos], progress=False)
    finally:
        torch.set_num_threads(threads)
    remote = Library(tmp_path / "ray.db")
    report = remote.index([photos], progress=False, analyse=analyser(ray_address="local"))
    assert report.added == 3 and report.moved == 1

    def rows(lib):
        conn = lib.index_db.conn
        cols = "path, hash, width, height, exif_date, description, keywords, concepts, ocr, text"
        return conn.execute(f"select {cols} from library_images order by path").fetchall()

    assert rows(remote) == rows(local) and len(rows(local)) == 4
    for path in [str(photos / n) for n in SAMPLES]:
        a = local.index_db.embedding(local.index_db.get_by_path(path).id)
        b = remote.index_db.embedding(remote.index_db.get_by_path(path).id)
        assert np.array_equal(a, b)
    # the writer kept the workers' perceptions in its own cache, as a local index does
    n = remote.index_db.conn.execute("select count(*) from perception").fetchone()[0]
    assert n == 3
    # the command line: the same rows through `main.py index --ray`
    import main

    assert main.main(["index", str(photos), "--db", str(tmp_path / "cli.db"), "--ray", "local", "-q"]) == 0
    assert rows(Library(tmp_path / "cli.db")) == rows(local)


INET = re.compile(r'inet_addr\("([^"]+)"\)|inet_pton\(AF_INET6, "([^"]+)"')


def outside_calls(trace: str) -> list[str]:
    """Network calls to any address but loopback (and any DNS query), from a strace log. A send on a
    connected socket names no address (its connect was checked)."""
    bad = []
    for line in trace.splitlines():
        for v4, v6 in INET.findall(line):
            addr = v4 or v6
            local = addr.startswith("127.") or addr in ("::1", "0.0.0.0", "::") or addr.startswith("::ffff:127.")
            if not local or "htons(53)" in line:
                bad.append(line.strip())
    return bad


@pytest.mark.skipif(shutil.which("strace") is None, reason="needs strace")
def test_a_ray_batch_from_the_command_line_stays_on_this_machine(tmp_path, astronaut):
    photos = _photos(tmp_path / "in", astronaut)
    recipe = Recipe("r", RECIPE).save(tmp_path / "r.json")
    trace = tmp_path / "net.trace"
    env = {**os.environ, "EASEL_HOME": str(tmp_path / "profile")}
    run = subprocess.run(["strace", "-f", "-qq", "-e", "trace=connect,sendto,sendmsg", "-o", str(trace),
                          sys.executable, str(ROOT / "main.py"), "batch", str(recipe), str(photos),
                          "-o", str(tmp_path / "out"), "--ray", "local", "-q"],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "3 done" in run.stdout
    assert outside_calls(trace.read_text()) == []
    assert "connect(" in trace.read_text()  # the check can fail: it did see Ray's loopback traffic
