"""The annotator host against the attacks of issue 32, each bounded in count and time, loopback
only: lines pipelined behind a refused hello, roles of dead connections, code guessing, idle
connections, deep JSON, and reading or injecting on the wire of an encrypted (--lan) session."""

from __future__ import annotations

import json
import random
import socket
import time

import numpy as np
import pytest

from app.annotator import net, seal
from app.annotator.hub import DialogueHub, ImageLibrary
from editor.annotations import AnnotationStore
from editor.imageio import write_image
from editor.store import Store

pytestmark = pytest.mark.gui

CODE = "k7m3x9q2pa"


@pytest.fixture
def library(tmp_path):
    folder = tmp_path / "images"
    folder.mkdir()
    write_image(folder / "red_umbrella.png", np.full((40, 60, 3), (200, 30, 30), np.uint8))
    return ImageLibrary(folder)


@pytest.fixture
def ann(tmp_path):
    store = Store(tmp_path / "profile" / "easel.db")
    yield AnnotationStore(store)
    store.close()


def serve(ann, library, **kw):
    server = net.HubServer(DialogueHub(ann, library, rng=random.Random(1)), **kw)
    return server, server.listen(net.LOOPBACK, 0)


def window(port: int, role: str, code: str | None):
    link = net.TcpLink(code=code)
    got: list[dict] = []
    link.received.connect(got.append)
    link.opened.connect(lambda: link.send({"type": "hello", "role": role, "annotator": role}))
    link.connect_to(net.LOOPBACK, port)
    return link, got


def texts(ann) -> list[str]:
    (session,) = ann.sessions("dialogue")
    return [e.text for e in ann.events(session.id) if e.kind in ("user_text", "assistant_text")]


class Raw:
    """A raw loopback socket read without blocking the Qt event loop the host runs on."""

    def __init__(self, qtbot, port: int):
        self.qtbot = qtbot
        self.s = socket.create_connection((net.LOOPBACK, port), timeout=10)
        self.s.setblocking(False)
        self.buf = b""
        self.eof = False

    def sendall(self, data: bytes) -> None:
        self.s.setblocking(True)
        self.s.sendall(data)
        self.s.setblocking(False)

    def _pump(self, until, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not until() and not self.eof and time.monotonic() < deadline:
            try:
                chunk = self.s.recv(65536)
            except BlockingIOError:
                self.qtbot.wait(5)
                continue
            except OSError:
                chunk = b""
            if not chunk:
                self.eof = True
            self.buf += chunk

    def readline(self, timeout: float = 5.0) -> bytes:
        self._pump(lambda: b"\n" in self.buf, timeout)
        line, _, self.buf = self.buf.partition(b"\n")
        return line

    def read_all(self, timeout: float = 5.0) -> bytes:
        self._pump(lambda: False, timeout)
        data, self.buf = self.buf, b""
        return data

    def close(self) -> None:
        self.s.close()


class SealedPeer(Raw):
    """A raw-socket client that speaks the sealed protocol (what a window does, without Qt)."""

    def __init__(self, qtbot, port: int, code: str):
        super().__init__(qtbot, port)
        self.greeting = json.loads(self.readline())
        self.channel = seal.client_channel(code, self.greeting)
        self.sent: list[bytes] = []

    def send(self, msg: dict) -> None:
        line = self.channel.seal(json.dumps(msg).encode()) + b"\n"
        self.sent.append(line)
        self.sendall(line)

    def recv(self) -> dict:
        return json.loads(self.channel.open(self.readline()))


def test_nothing_pipelined_behind_a_refused_hello_is_read(qtbot, ann, library, no_network):
    """A wrong-code hello with a right-code hello and a chat line behind it in one packet: none of
    it is acted on, and no role stays bound to the dead connection (plaintext-code host)."""
    server, port = serve(ann, library, code=CODE, sealed=False)
    user, seen = window(port, "user", None)  # no code: refused; then the real one
    user.close()
    for extra in ([{"type": "hello", "role": "assistant", "annotator": "eve", "code": CODE},
                   {"type": "chat", "text": "injected after a refusal"}],):
        s = Raw(qtbot, port)
        s.sendall(b"".join(json.dumps(m).encode() + b"\n" for m in
                           [{"type": "hello", "role": "assistant", "code": "wrong-code"}, *extra]))
        data = s.read_all()
        s.close()
        assert [json.loads(x)["reason"] for x in data.splitlines()] == ["code"]
    qtbot.waitUntil(lambda: not any(isinstance(x, net.TcpLink) for x in server.links), timeout=5000)
    assert server.roles == {} and "injected after a refusal" not in texts(ann)
    server.close()


def test_a_refused_role_reads_nothing_more_and_the_owner_keeps_it(qtbot, ann, library, no_network):
    server, port = serve(ann, library)  # loopback, no code
    user, seen = window(port, "user", None)
    qtbot.waitUntil(lambda: any(m["type"] == "state" for m in seen), timeout=10000)
    s = Raw(qtbot, port)
    s.sendall(b'{"type": "hello", "role": "user", "annotator": "eve"}\n'
              b'{"type": "chat", "text": "pipelined behind a taken role"}\n')
    data = s.read_all()
    s.close()
    assert b"already taken" in data and data.count(b"\n") == 1
    user.send({"type": "chat", "text": "mine"})
    qtbot.waitUntil(lambda: "mine" in texts(ann), timeout=10000)
    assert texts(ann) == ["mine"] and list(server.roles.values()) == ["user"]
    user.close()
    server.close()


def test_a_role_is_freed_when_its_connection_dies(qtbot, ann, library, no_network, caplog):
    caplog.set_level("WARNING")
    server, port = serve(ann, library, code=CODE)
    for attempt in range(3):  # take the role, die without a goodbye, again
        peer = SealedPeer(qtbot, port, CODE)
        peer.send({"type": "hello", "role": "user", "annotator": f"u{attempt}"})
        assert peer.recv()["type"] == "state"
        qtbot.waitUntil(lambda: list(server.roles.values()) == ["user"], timeout=5000)
        peer.s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        peer.close()  # RST: the connection dies
        qtbot.waitUntil(lambda: server.roles == {}, timeout=5000)
    assistant, heard = window(port, "assistant", CODE)
    qtbot.waitUntil(lambda: any(m["type"] == "state" for m in heard), timeout=10000)
    assistant.send({"type": "chat", "text": "a broadcast to whoever is left"})
    qtbot.waitUntil(lambda: any(m.get("event", {}).get("text", "").startswith("a broadcast") for m in heard),
                    timeout=10000)
    assert "already deleted" not in caplog.text
    assistant.close()
    server.close()


def test_wrong_codes_back_off_then_lock_out_and_the_log_says_so(qtbot, ann, library, no_network,
                                                                monkeypatch, caplog):
    """At most FAILS_PER_ADDRESS codes are ever checked from one address; later tries (even the
    right code) are refused unchecked; the lockout is logged. Bounded: 60 tries or 20 s."""
    caplog.set_level("WARNING", logger="easel.annotator")
    monkeypatch.setattr(net, "BACKOFF_S", 0.01)
    monkeypatch.setattr(net, "MAX_BACKOFF_S", 0.05)
    server, port = serve(ann, library, code=CODE, sealed=False)
    reasons = []
    deadline = time.monotonic() + 20
    for i in range(60):
        if time.monotonic() > deadline:
            break
        s = Raw(qtbot, port)
        s.sendall(json.dumps({"type": "hello", "role": "user", "code": f"guess{i:05d}"}).encode() + b"\n")
        data = s.readline()
        s.close()
        reasons.append(json.loads(data)["reason"] if data else "closed")
        if reasons[-1] != "code":  # backing off: wait it out, so the count does not hang on the machine's speed
            time.sleep(net.MAX_BACKOFF_S)
    checked = reasons.count("code")
    assert checked == net.FAILS_PER_ADDRESS, reasons
    assert "locked out 127.0.0.1" in caplog.text
    s = Raw(qtbot, port)  # even the right code is refused unchecked now
    s.sendall(json.dumps({"type": "hello", "role": "user", "code": CODE}).encode() + b"\n")
    data = s.read_all()
    s.close()
    assert b"locked out" in data and server.roles == {}
    server.close()


def test_the_guard_locks_everyone_out_after_too_many_codes_overall(caplog):
    caplog.set_level("WARNING", logger="easel.annotator")
    now = [0.0]
    guard = net.HelloGuard(clock=lambda: now[0])
    addresses = [f"10.0.0.{i}" for i in range(net.FAILS_OVERALL)]  # names only: nothing connects
    for a in addresses:
        assert guard.admit(a) is None
        guard.failed(a)
        assert guard.admit(a) is not None  # backing off
    assert guard.burned and "no new partner is admitted" in caplog.text
    now[0] += 10 * net.LOCKOUT_S
    assert "restart" in guard.admit("192.168.1.9")


def test_idle_strangers_never_keep_the_partner_out(qtbot, ann, library, no_network):
    server, port = serve(ann, library, code=CODE)
    idle = [socket.create_connection((net.LOOPBACK, port)) for _ in range(net.MAX_CONNECTIONS)]
    qtbot.waitUntil(lambda: sum(isinstance(x, net.TcpLink) for x in server.links) == net.MAX_CONNECTIONS,
                    timeout=5000)
    joined = 0
    for _ in range(5):  # five joins in a row, each while eight idle strangers hold every place
        link, seen = window(port, "user", CODE)
        qtbot.waitUntil(lambda seen=seen: any(m["type"] == "state" for m in seen), timeout=10000)
        joined += 1
        link.close()
        qtbot.waitUntil(lambda: "user" not in server.roles.values(), timeout=5000)
        idle.append(socket.create_connection((net.LOOPBACK, port)))
    assert joined == 5
    t0 = time.monotonic()  # and idle ones go by themselves within the hello timeout
    qtbot.waitUntil(lambda: not any(isinstance(x, net.TcpLink) for x in server.links),
                    timeout=net.HELLO_TIMEOUT_MS + 3000)
    assert time.monotonic() - t0 < (net.HELLO_TIMEOUT_MS + 3000) / 1000
    for s in idle:
        s.close()
    server.close()


def test_deep_json_is_refused_without_recursion_error(qtbot, ann, library, no_network):
    buf = net.LineBuffer(max_line=8 * 2**20)
    deep = b"[" * 1_000_000 + b"]" * 1_000_000
    (item,) = buf.feed(deep + b"\n")
    assert isinstance(item, ValueError) and "nested deeper" in str(item)
    ok = b'{"type": "x", "a": ' + b"[" * 30 + b"]" * 30 + b', "s": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}'
    (item,) = buf.feed(ok + b"\n")
    assert isinstance(item, dict)  # brackets inside strings do not count
    assert seal.too_deep(b'{"a":' * 33 + b"1" + b"}" * 33)
    server, port = serve(ann, library, code=CODE)
    user, seen = window(port, "user", CODE)
    qtbot.waitUntil(lambda: any(m["type"] == "state" for m in seen), timeout=10000)
    user.send({"type": "chat", "text": "before", "x": json.loads("[" * 900 + "]" * 900)})
    user.send({"type": "chat", "text": "after"})
    qtbot.waitUntil(lambda: "after" in texts(ann), timeout=10000)
    assert "before" not in texts(ann)
    # the error goes back to the sender and may arrive after "after" was recorded: wait for it
    qtbot.waitUntil(lambda: any("nested deeper" in m.get("text", "") for m in seen if m["type"] == "error"),
                    timeout=10000)
    user.close()
    server.close()


def test_the_lan_session_cannot_be_read_or_injected(qtbot, ann, library, no_network):
    server, port = serve(ann, library, code=CODE)
    user = SealedPeer(qtbot, port, CODE)
    user.send({"type": "hello", "role": "user", "annotator": "ann"})
    assert user.recv()["type"] == "state"
    user.send({"type": "chat", "text": "a secret umbrella request"})
    wire = user.readline()
    # what the wire carries is not the message, and the code never travels
    assert b"secret" not in wire and b"umbrella" not in wire and b"chat" not in wire
    assert all(CODE.encode() not in line for line in user.sent)
    qtbot.waitUntil(lambda: "a secret umbrella request" in texts(ann), timeout=10000)
    # replaying the user's hello and chat lines on a new connection: refused, nothing recorded
    s = Raw(qtbot, port)
    s.readline()  # its own greeting, another nonce
    s.sendall(user.sent[0] + user.sent[1])
    data = s.read_all()
    s.close()
    assert b'"reason":"code"' in data
    # a line re-sent on the user's own connection (replay within the session): refused
    user.sendall(user.sent[1])
    qtbot.wait(300)
    assert texts(ann) == ["a secret umbrella request"]
    # a key from the wrong code does not open the session
    qtbot.wait(int(net.BACKOFF_S * 1000) + 100)
    eve = SealedPeer(qtbot, port, "k7m3x9q2pb")
    eve.send({"type": "hello", "role": "assistant", "annotator": "eve"})
    assert json.loads(eve.readline())["reason"] == "code"
    eve.close()
    user.close()
    server.close()
