"""The annotator host facing a hostile network: strangers without the session code, many
connections, garbage on the wire. All traffic stays on loopback."""

from __future__ import annotations

import json
import random
import selectors
import socket
import threading
import time

import numpy as np
import pytest

from app.annotator import net
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
    write_image(folder / "green_field.png", np.full((40, 60, 3), (30, 200, 30), np.uint8))
    return ImageLibrary(folder)


@pytest.fixture
def ann(tmp_path):
    store = Store(tmp_path / "profile" / "easel.db")
    yield AnnotationStore(store)
    store.close()


@pytest.fixture
def host(qtbot, ann, library):
    server = net.HubServer(DialogueHub(ann, library, rng=random.Random(1)), code=CODE)
    port = server.listen(net.LOOPBACK, 0)
    yield server, port
    server.close()


def window(qtbot, port: int, role: str, code: str | None):
    """A window's end of the connection: what it receives is collected."""
    link = net.TcpLink(code=code)
    got: list[dict] = []
    link.received.connect(got.append)
    link.opened.connect(lambda: link.send({"type": "hello", "role": role, "annotator": role}))
    link.connect_to(net.LOOPBACK, port)
    return link, got


def rss() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


def in_thread(fn) -> threading.Thread:
    t = threading.Thread(target=fn, daemon=True)
    t.start()
    return t


def test_a_stranger_without_the_code_is_refused_and_reads_nothing(qtbot, host, ann, no_network, monkeypatch):
    # on loopback the strangers and the partner share one address: a short back-off lets the
    # partner in after them (across a LAN the strangers' address backs off, not the partner's)
    monkeypatch.setattr(net, "BACKOFF_S", 0.05)
    server, port = host
    user, seen = window(qtbot, port, "user", CODE)
    qtbot.waitUntil(lambda: any(m["type"] == "state" for m in seen), timeout=10000)
    user.send({"type": "chat", "text": "a secret request"})
    qtbot.waitUntil(lambda: any(m["type"] == "event" for m in seen), timeout=10000)

    received: dict[str, bytes] = {}

    def stranger(name: str, hello: dict) -> None:
        with socket.create_connection((net.LOOPBACK, port), timeout=10) as s:
            data = b""
            try:  # the host hangs up at the refused hello: the chat line may meet a reset
                s.sendall(json.dumps(hello).encode() + b"\n")
                s.sendall(json.dumps({"type": "chat", "text": "injected"}).encode() + b"\n")
            except OSError:
                pass
            try:
                while chunk := s.recv(65536):
                    data += chunk
            except OSError:
                pass
            received[name] = data

    threads = [in_thread(lambda: stranger("no code", {"type": "hello", "role": "assistant", "annotator": "eve"})),
               in_thread(lambda: stranger("wrong code", {"type": "hello", "role": "assistant",
                                                          "annotator": "eve", "code": "k7m3x9q2pb"})),
               in_thread(lambda: stranger("the user's role", {"type": "hello", "role": "user", "annotator": "eve"}))]
    qtbot.waitUntil(lambda: not any(t.is_alive() for t in threads), timeout=15000)  # the host hung up
    for name, data in received.items():
        lines = [json.loads(x) for x in data.splitlines() if x.strip()]
        # the host's greeting (salt and nonce of the encrypted session, no session data), then no;
        # a stranger arriving while the address backs off from another's wrong code gets the no only
        if lines and lines[0]["type"] == "sealed":
            assert set(lines[0]) == {"type", "v", "salt", "nonce"}
            lines = lines[1:]
        else:
            assert lines and lines[0].get("reason") == "locked", (name, lines)
        assert [m["type"] for m in lines] == ["error"], (name, lines)
        assert "session code" in lines[0]["text"]
        assert b"secret" not in data and b"umbrella" not in data and b"field" not in data
    assert sorted(server.roles.values()) == ["user"]  # nobody took a role; the user kept theirs
    qtbot.wait(600)  # the address's back-off after three wrong codes
    assistant, heard = window(qtbot, port, "assistant", CODE)  # the real partner still gets in
    qtbot.waitUntil(lambda: any(m["type"] == "state" for m in heard), timeout=10000)
    user.close()
    assistant.close()
    (session,) = ann.sessions("dialogue")
    assert [e.text for e in ann.events(session.id, "user_text")] == ["a secret request"]


def test_a_host_on_the_lan_always_has_a_code(qtbot, ann, library):
    server = net.HubServer(DialogueHub(ann, library))
    server.listen("0.0.0.0", 0)
    assert server.code and len(server.code) >= 10
    server.close()
    local = net.HubServer(DialogueHub(ann, library))
    local.listen(net.LOOPBACK, 0)
    assert local.code is None  # loopback: only this machine's users can reach it
    local.close()
    assert net.new_session_code() != net.new_session_code()


def test_fifty_hostile_connections_stay_within_a_memory_bound(qtbot, host, monkeypatch, no_network):
    """50 connections at once, each pushing 8 MiB without a newline: the host serves at most
    MAX_CONNECTIONS, keeps at most HELLO_MAX_LINE of each, and its memory grows by less than 32 MiB
    (the previous host kept every byte: about 56 MiB here); the session goes on."""
    server, port = host
    user, seen = window(qtbot, port, "user", CODE)
    qtbot.waitUntil(lambda: any(m["type"] == "state" for m in seen), timeout=10000)
    before = rss()
    per_conn = 8 * 2**20
    sent = {"bytes": 0, "refused": 0}

    def flood() -> None:
        sel = selectors.DefaultSelector()
        chunk = b"A" * 65536
        left = {}
        for _ in range(50):
            s = socket.socket()
            s.connect((net.LOOPBACK, port))
            s.setblocking(False)
            left[s] = per_conn
            sel.register(s, selectors.EVENT_WRITE)
        deadline = time.monotonic() + 60
        while left and time.monotonic() < deadline:
            for key, _ in sel.select(timeout=0.2):
                s = key.fileobj
                try:
                    n = s.send(chunk[:left[s]])
                except OSError:  # the host hung up on this one
                    n = 0
                    left[s] = 0
                    sent["refused"] += 1
                sent["bytes"] += n
                left[s] -= n
                if left[s] <= 0:
                    sel.unregister(s)
                    del left[s]
                    s.close()
        sel.close()

    peak = [before]

    def done() -> bool:  # sampled while the host serves the flood: the peak is what counts
        peak[0] = max(peak[0], rss())
        return not t.is_alive()

    t = in_thread(flood)
    qtbot.waitUntil(done, timeout=90000)
    qtbot.waitUntil(lambda: all(not isinstance(x, net.TcpLink) or x in server.roles for x in server.links),
                    timeout=10000)
    grown, after = peak[0] - before, rss() - before
    print(f"flood: {sent}, host memory peak +{grown / 2**20:.1f} MiB, after +{after / 2**20:.1f} MiB")
    assert grown < 32 * 2**20, f"host memory grew by {grown / 2**20:.1f} MiB"
    assert sent["bytes"] + sent["refused"] > 0
    # the session goes on
    user.send({"type": "chat", "text": "still here"})
    qtbot.waitUntil(lambda: any(m.get("event", {}).get("text") == "still here" for m in seen), timeout=10000)
    user.close()


def test_a_silent_connection_is_dropped_and_connections_are_capped(qtbot, host, monkeypatch, no_network):
    monkeypatch.setattr(net, "HELLO_TIMEOUT_MS", 300)
    server, port = host
    socks = [socket.create_connection((net.LOOPBACK, port)) for _ in range(net.MAX_CONNECTIONS + 4)]
    qtbot.waitUntil(lambda: sum(isinstance(x, net.TcpLink) for x in server.links) == net.MAX_CONNECTIONS,
                    timeout=10000)
    qtbot.waitUntil(lambda: not any(isinstance(x, net.TcpLink) for x in server.links), timeout=10000)
    for s in socks:
        s.close()


def test_a_garbage_stream_does_not_disturb_the_recorded_session(qtbot, host, ann, no_network, caplog):
    caplog.set_level("WARNING", logger="easel.annotator")
    server, port = host
    user, seen = window(qtbot, port, "user", CODE)
    assistant, heard = window(qtbot, port, "assistant", CODE)
    qtbot.waitUntil(lambda: len(server.roles) == 2, timeout=10000)
    rng = np.random.default_rng(0)

    def stranger() -> None:  # random bytes, half-JSON, huge lines, from someone without the code
        with socket.create_connection((net.LOOPBACK, port), timeout=10) as s:
            try:
                for i in range(200):
                    s.sendall(rng.integers(0, 256, 1000, dtype=np.uint8).tobytes()
                              + (b"\n" if i % 3 else b'{"type": "chat", "text": "x"}\n'))
            except OSError:
                pass

    t = in_thread(stranger)
    # a plaintext line, even a valid request, is garbage in an encrypted session: never recorded
    plain = b'{"type": "chat", "text": "plain injected"}\n'
    garbage = [b"not json\n", b'{"type": 5}\n', b"[1,2,3]\n", b"\xff\xfe\n", b"{" * 300000 + b"\n", plain]
    for i, g in enumerate(garbage):  # the partner's own socket sends garbage between real requests
        user.socket.write(g)
        user.send({"type": "chat", "text": f"request {i}"})
    user.socket.write(b"more garbage\n")
    user.send({"type": "chat", "text": "y" * 10})
    assistant.send({"type": "chat", "text": "on it"})
    qtbot.waitUntil(lambda: not t.is_alive(), timeout=20000)
    qtbot.waitUntil(lambda: sum(m.get("event", {}).get("kind") == "user_text" for m in heard) == 7,
                    timeout=10000)
    assert sorted(server.roles.values()) == ["assistant", "user"]
    (session,) = ann.sessions("dialogue")
    texts = [e.text for e in ann.events(session.id) if e.kind in ("user_text", "assistant_text")]
    assert [x for x in texts if x.startswith("request")] == [f"request {i}" for i in range(len(garbage))]
    assert "y" * 10 in texts  # a valid line after garbage on the same socket still counts
    assert "x" not in texts and "on it" in texts  # nothing of the stranger's got in
    assert "plain injected" not in texts
    assert sum(m["type"] == "error" for m in seen) >= 4  # each bad line was answered, not silently eaten
    reasons = caplog.text
    assert "does not open" in reasons and "longer than" in reasons, reasons[-3000:]
    user.close()
    assistant.close()


def test_cli_host_on_the_lan_and_join_with_the_code(qtbot, tmp_path, library, no_network):
    import main
    from app.annotator.run import open_host, open_join

    parser = main.build_parser()
    db = str(tmp_path / "cli" / "easel.db")
    server, assistant, port = open_host(parser.parse_args(
        ["annotate", "host", "--lan", "--port", "0", "--db", db, "--images", str(library.folder),
         "--annotator", "bob"]))
    qtbot.addWidget(assistant)
    assert server.code and server.server.serverAddress().toString() == "0.0.0.0"
    # without the code: refused once, and the window stops retrying
    link, stranger = open_join(parser.parse_args(["annotate", "join", f"127.0.0.1:{port}", "--role", "user"]))
    qtbot.addWidget(stranger)
    qtbot.waitUntil(lambda: any("session code" in line for line in stranger.chat.lines()), timeout=10000)
    assert link.target is None and not stranger.connected
    link, user = open_join(parser.parse_args(["annotate", "join", f"127.0.0.1:{port}", "--role", "user",
                                              "--code", server.code, "--annotator", "ann"]))
    qtbot.addWidget(user)
    qtbot.waitUntil(lambda: user.connected and assistant.peers == ["assistant", "user"], timeout=10000)
    link.close()
    server.close()
