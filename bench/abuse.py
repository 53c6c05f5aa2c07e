"""Issue 32's probes against the annotator host, bounded, loopback only; prints a table.

    QT_QPA_PLATFORM=offscreen python bench/abuse.py [--quick]

Each section runs against a fresh host (a child process, encrypted as with ``--lan``, listening on
127.0.0.1) with a real partner connected who chats before and after the probes. Per section:

- tried: probes sent;
- clean error: probes the host answered with an error and/or a clean close (or, for probes that
  should succeed, that succeeded: the partner joining, the role taken again);
- crash: the host process died, or its log shows a traceback or RecursionError;
- data lost: the partner's chat lines missing from the database afterwards;
- got in: a probe's message recorded, or a probe that read session data.

Every section stops after its count or 20 s, whichever comes first.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.annotator import seal  # noqa: E402 - after the path is set; no Qt in this module

CODE = "k7m3x9q2pa"
SECTION_S = 20.0

HOST = r"""
import logging, random, sys
sys.path.insert(0, sys.argv[1])
import numpy as np
from PySide6.QtCore import QCoreApplication, QTimer
from app.annotator import net
from app.annotator.hub import DialogueHub, ImageLibrary
from editor.annotations import AnnotationStore
from editor.imageio import write_image
from editor.store import Store
logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
app = QCoreApplication([])
folder, db = sys.argv[2], sys.argv[3]
write_image(folder + "/red_umbrella.png", np.full((40, 60, 3), (200, 30, 30), np.uint8), overwrite=True)
hub = DialogueHub(AnnotationStore(Store(db)), ImageLibrary(folder), rng=random.Random(1))
server = net.HubServer(hub, code=sys.argv[4])
print(server.listen(net.LOOPBACK, 0), flush=True)
QTimer.singleShot(90_000, app.quit)  # bounded, whatever happens
sys.stdin.close()
app.exec()
server.close()
"""


class Refused(ConnectionError):
    """The host closed a connection before greeting it (an address backing off or locked out)."""


class Peer:
    """A blocking loopback client; ``code`` makes it speak the sealed protocol."""

    def __init__(self, port: int, code: str | None = CODE, timeout: float = 5.0):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.f = self.s.makefile("rb")
        self.channel = None
        self.sent: list[bytes] = []
        if code is not None:
            self.greeting = json.loads(self.f.readline())
            if self.greeting.get("type") == "error":  # backing off or locked out: refused unchecked
                raise Refused(self.greeting.get("text", ""))
            self.channel = seal.client_channel(code, self.greeting)

    def send(self, msg: dict) -> None:
        data = json.dumps(msg).encode()
        line = (self.channel.seal(data) if self.channel else data) + b"\n"
        self.sent.append(line)
        self.s.sendall(line)

    def raw(self, data: bytes) -> None:
        self.s.sendall(data)

    def line(self) -> bytes:
        return self.f.readline()

    def recv(self) -> dict:
        line = self.line()
        if not line:
            raise ConnectionError("closed")
        return json.loads(self.channel.open(line.rstrip(b"\n")) if self.channel else line)

    def until(self, pred, limit: int = 100_000) -> dict:
        for _ in range(limit):
            m = self.recv()
            if pred(m):
                return m
        raise TimeoutError("no such message")

    def drain(self) -> bytes:
        data = b""
        try:
            while chunk := self.s.recv(65536):
                data += chunk
        except OSError:
            pass
        return data

    def close(self, reset: bool = False) -> None:
        if reset:
            self.s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        self.f.close()
        self.s.close()


class Host:
    def __init__(self, tmp: Path, name: str):
        folder = tmp / name
        folder.mkdir()
        self.db = folder / "easel.db"
        self.log = folder / "host.log"
        with open(self.log, "w") as err:  # the child keeps its own copy of the descriptor
            self.p = subprocess.Popen([sys.executable, "-c", HOST, str(ROOT), str(folder), str(self.db),
                                       CODE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=err, cwd=ROOT, text=True)
        self.port = int(self.p.stdout.readline())
        self.partner = Peer(self.port)
        self.partner.send({"type": "hello", "role": "user", "annotator": "ann"})
        self.partner.until(lambda m: m["type"] == "state")
        self.said: list[str] = []
        self.say("before the probes")

    def say(self, text: str) -> None:
        self.partner.send({"type": "chat", "text": text})
        self.partner.until(lambda m: m.get("event", {}).get("text") == text)
        self.said.append(text)

    def finish(self, row: dict) -> dict:
        with contextlib.suppress(OSError, ConnectionError, TimeoutError, ValueError):
            self.say("after the probes")
        alive = self.p.poll() is None
        self.partner.close()
        self.p.terminate()
        self.p.wait(timeout=30)
        log = self.log.read_text()
        row["crash"] += int(not alive) + log.count("Traceback") + log.count("RecursionError")
        with sqlite3.connect(self.db) as conn:
            got = [r[0] for r in conn.execute("select text from ann_events where kind = 'user_text'")]
        row["data lost"] += sum(1 for t in self.said + ["after the probes"] if t not in got)
        row["got in"] += sum(1 for t in got if "injected" in t)
        row["lockouts logged"] = log.count("locked out") + log.count("no new partner")
        return row


def row() -> dict:
    return {"tried": 0, "clean error": 0, "crash": 0, "data lost": 0, "got in": 0}


def section(fn, tmp: Path, n: int) -> dict:
    host = Host(tmp, fn.__name__)
    r = row()
    deadline = time.monotonic() + SECTION_S
    try:
        fn(host, r, n, deadline)
    except Exception as exc:  # noqa: BLE001 - a probe that breaks is reported, not fatal
        print(f"  {fn.__name__}: probe stopped: {type(exc).__name__}: {exc}", file=sys.stderr)
    return host.finish(r)


def pipelined(host: Host, r: dict, n: int, deadline: float) -> None:
    """A wrong-key hello with an 'injected' chat pipelined behind it, in one packet."""
    for i in range(n):
        if time.monotonic() > deadline:
            break
        r["tried"] += 1
        try:
            p = Peer(host.port, code=f"wrong{i:05d}")
        except Refused:  # backing off: refused before anything is read
            r["clean error"] += 1
            time.sleep(0.02)
            continue
        p.raw(b"".join(p.channel.seal(json.dumps(m).encode()) + b"\n" for m in
                       [{"type": "hello", "role": "assistant"}, {"type": "chat", "text": f"injected {i}"}]))
        data = p.drain()
        lines = [json.loads(x) for x in data.splitlines() if x.strip()]
        r["clean error"] += int(len(lines) == 1 and lines[0]["type"] == "error")
        p.close()
        time.sleep(0.02)


def dead_roles(host: Host, r: dict, n: int, deadline: float) -> None:
    """Take the assistant role, die with a reset, take it again."""
    for _ in range(n):
        if time.monotonic() > deadline:
            break
        r["tried"] += 1
        p = Peer(host.port)
        p.send({"type": "hello", "role": "assistant", "annotator": "bob"})
        ok = p.until(lambda m: m["type"] in ("state", "error"))["type"] == "state"
        p.close(reset=True)
        r["clean error"] += int(ok)
        time.sleep(0.05)


def wrong_codes(host: Host, r: dict, n: int, deadline: float) -> None:
    """As many wrong codes as the host will take; 'clean error' counts every refusal, and the
    codes actually checked are printed."""
    checked = 0
    for i in range(n):
        if time.monotonic() > deadline:
            break
        r["tried"] += 1
        try:
            p = Peer(host.port, code=f"guess{i:05d}")
        except Refused:  # refused before the greeting: backing off or locked out
            r["clean error"] += 1
            continue
        p.send({"type": "hello", "role": "assistant"})
        data = p.drain()
        p.close()
        try:
            reason = json.loads(data.splitlines()[-1]).get("reason")
        except (IndexError, ValueError):
            reason = None
        checked += reason == "code"
        r["clean error"] += reason in ("code", "locked")
    r["codes checked"] = checked


def idle_strangers(host: Host, r: dict, n: int, deadline: float) -> None:
    """Eight silent connections, then the assistant joins (and leaves) n times, a new silent
    connection after each; 'clean error' counts successful joins."""
    idle = [socket.create_connection(("127.0.0.1", host.port)) for _ in range(8)]
    time.sleep(0.3)
    for _ in range(n):
        if time.monotonic() > deadline:
            break
        r["tried"] += 1
        try:
            p = Peer(host.port)
            p.send({"type": "hello", "role": "assistant", "annotator": "bob"})
            r["clean error"] += p.until(lambda m: m["type"] in ("state", "error"))["type"] == "state"
            p.close()
        except (OSError, ConnectionError, ValueError):
            pass
        idle.append(socket.create_connection(("127.0.0.1", host.port)))
        time.sleep(0.1)
    for s in idle:
        s.close()


class Attacker:
    """An authenticated assistant connection (an insider's), renewed before the host's limit of
    bad lines per connection closes it."""

    def __init__(self, host: Host):
        self.host = host
        self.peer: Peer | None = None
        self.bad = 0

    def get(self) -> Peer:
        if self.peer is None or self.bad >= 8:
            if self.peer is not None:
                self.peer.close()
            self.peer = Peer(self.host.port)
            self.peer.send({"type": "hello", "role": "assistant", "annotator": "mallory"})
            self.peer.until(lambda m: m["type"] == "state")
            self.peer.send({"type": "chat", "text": "a captured line"})
            self.peer.until(lambda m: m.get("event", {}).get("text") == "a captured line")
            self.bad = 0
        return self.peer

    def answer(self, data: bytes) -> dict:
        p = self.get()
        p.raw(data)
        self.bad += 1
        return p.until(lambda m: m["type"] == "error" or (  # or the probe's own line, recorded
            m["type"] == "event" and "injected" in (m["event"].get("text") or "")))

    def close(self) -> None:
        if self.peer is not None:
            self.peer.close()


def deep_json(host: Host, r: dict, n: int, deadline: float) -> None:
    """Deeply nested lines, sealed, from an authenticated connection."""
    a = Attacker(host)
    for i in range(n):
        if time.monotonic() > deadline:
            break
        depth = 33 + (i * 9973) % 60_000  # a sealed line stays under the host's line limit
        r["tried"] += 1
        line = b'{"type": "chat", "text": "injected deep", "x": ' + b"[" * depth + b"]" * depth + b"}"
        p = a.get()
        m = a.answer(p.channel.seal(line) + b"\n")
        clean = m["type"] == "error" and ("nested" in m.get("text", "") or "longer than" in m.get("text", ""))
        r["clean error"] += clean
        if not clean:
            print(f"  deep_json: depth {depth}: {str(m)[:200]}", file=sys.stderr)
        if i % 5 == 0:
            host.say(f"still here {i}")
    a.close()


def wire(host: Host, r: dict, n: int, deadline: float) -> None:
    """Replays of the partner's lines on a new connection, replays of a line within its own
    session, plaintext requests injected into the encrypted session; 'got in' also counts the
    code or a chat line seen in clear on the wire."""
    captured = host.partner.sent[:]
    a = Attacker(host)
    # in-session probes first: on loopback the attacker's new connections share the partner's
    # address, which the replays on new connections (wrong codes to the host) make back off
    for i, kind in enumerate(sorted(j % 3 for j in range(n))[::-1]):
        if time.monotonic() > deadline:
            break
        r["tried"] += 1
        if kind == 0:  # the partner's captured hello and chat replayed on a new connection
            try:
                p = Peer(host.port, code=None)
            except Refused:
                r["clean error"] += 1
                continue
            data = p.line()  # its greeting (or a refusal: the address backs off)
            with contextlib.suppress(OSError):
                p.raw(captured[0] + captured[1])
            data += p.drain()
            p.close()
            r["clean error"] += b'"reason":"code"' in data or b'"reason":"locked"' in data
        elif kind == 1:  # a line replayed within its own session
            p = a.get()
            r["clean error"] += a.answer(p.sent[-1])["type"] == "error"
        else:  # a plaintext request injected into the encrypted session
            m = a.answer(json.dumps({"type": "chat", "text": f"injected {i}"}).encode() + b"\n")
            r["clean error"] += m["type"] == "error"
    a.close()
    r["got in"] += sum(b"before the probes" in line or CODE.encode() in line for line in host.partner.sent)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer probes per section")
    args = ap.parse_args()
    k = 0.25 if args.quick else 1.0
    sections = [(pipelined, 40), (dead_roles, 40), (wrong_codes, 300), (idle_strangers, 20),
                (deep_json, 20), (wire, 60)]
    cols = ["tried", "clean error", "crash", "data lost", "got in"]
    print(f"{'section':16}" + "".join(f"{c:>13}" for c in cols) + "  notes")
    with tempfile.TemporaryDirectory(prefix="easel-abuse-") as tmp:
        for fn, n in sections:
            t0 = time.monotonic()
            r = section(fn, Path(tmp), max(3, int(n * k)))
            notes = [f"{time.monotonic() - t0:.1f} s"]
            if "codes checked" in r:
                notes.append(f"codes checked {r['codes checked']}")
            if r.get("lockouts logged"):
                notes.append(f"lockouts logged {r['lockouts logged']}")
            print(f"{fn.__name__:16}" + "".join(f"{r[c]:>13}" for c in cols) + "  " + ", ".join(notes),
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
