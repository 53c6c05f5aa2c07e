"""A whole session stays on this machine, native code included.

Python-level guards (``no_network`` in conftest) cannot see what C++ libraries do: onnxruntime's
telemetry resolved its events host from native code. So the session (cut out, search, explain,
describe) runs in a child process under ``strace``, and every ``connect``/``sendto``/``sendmsg``
to anything but loopback or a local socket fails the test, as does a file written outside the
profile's folders (onnxruntime kept a device id in ``~/.cache``).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

from tests.conftest import ROOT

SESSION = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    sys.path.insert(0, sys.argv[1])
    tmp = Path(sys.argv[2])
    from agent.dialogue.assistant import build_manager
    from agent.dialogue.manager import GrammarParser
    from agent.search.library import Library
    from editor.document import Document
    from editor.imageio import read_image
    from editor.store import Store

    store = Store(tmp / "profile" / "easel.db")
    Library(tmp / "profile" / "library.db").close()  # an empty library: the sample is indexed on search
    img = read_image(Path(sys.argv[1]) / "resources" / "library" / "chelsea.jpg")
    doc = Document.create(store, img.pixels, title="chelsea.jpg")
    manager = build_manager(doc, parser=GrammarParser(), library_path=tmp / "profile" / "library.db",
                            sample=True)
    for request in ["image_cutout", "explain", "describe", "search a cat", "describe"]:
        r = manager.handle(request)
        print(json.dumps({"request": request, "ok": r.ok, "reply": r.reply[:200]}), flush=True)
""")

NET_CALL = re.compile(r"\b(connect|sendto|sendmsg)\((\d+), (\{.*?\}|NULL)")


def outside_calls(trace: str) -> list[str]:
    """The network calls of a strace log that leave the machine (or ask DNS, port 53)."""
    bad = []
    for line in trace.splitlines():
        m = NET_CALL.search(line)
        if not m or m.group(3) == "NULL" or "AF_UNIX" in m.group(3) or "AF_NETLINK" in m.group(3):
            continue
        addr = m.group(3)
        loopback = re.search(r'inet_addr\("127\.|inet_pton\(AF_INET6, "::1"', addr)
        if not loopback or "htons(53)" in addr:
            bad.append(line.strip())
    return bad


def test_outside_calls_recognises_dns_and_remote_connections():
    log = (
        '12 connect(7, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.255.255.53")}, 16) = 0\n'
        '12 connect(8, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("20.42.65.92")}, 16) = -1\n'
        '12 connect(9, {sa_family=AF_INET, sin_port=htons(8765), sin_addr=inet_addr("127.0.0.1")}, 16) = 0\n'
        '12 connect(3, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1\n'
        '12 sendto(4, "x", 1, 0, NULL, 0) = 1\n')
    assert len(outside_calls(log)) == 2


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("strace") is None, reason="needs strace (Debian package strace)")
@pytest.mark.timeout(600)
def test_a_session_that_cuts_out_searches_explains_and_describes_stays_offline(tmp_path):
    script = tmp_path / "session.py"
    script.write_text(SESSION)
    home = tmp_path / "home"
    home.mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"),
           "XDG_CONFIG_HOME": str(home / ".config"), "EASEL_HOME": str(tmp_path / "profile"),
           "OMP_NUM_THREADS": "1", "LANG": "C.UTF-8"}
    log = tmp_path / "strace.log"
    res = subprocess.run(
        ["strace", "-f", "-qq", "-e", "trace=connect,sendto,sendmsg", "-o", str(log),
         sys.executable, str(script), str(ROOT), str(tmp_path)],
        capture_output=True, text=True, env=env, timeout=580)
    if res.returncode != 0 and "ptrace" in res.stderr:
        pytest.skip(f"strace cannot trace here: {res.stderr.strip()[:200]}")
    assert res.returncode == 0, res.stderr[-3000:]
    turns = [json.loads(line) for line in res.stdout.splitlines() if line.startswith("{")]
    assert [t["request"] for t in turns] == ["image_cutout", "explain", "describe", "search a cat", "describe"]
    assert all(t["ok"] for t in turns), turns
    bad = outside_calls(log.read_text())
    assert not bad, "network access outside the machine:\n" + "\n".join(bad[:10])
    written = sorted(str(p.relative_to(home)) for p in home.rglob("*") if p.is_file())
    assert written == [], f"files written outside the profile: {written}"
