"""Transports between annotator windows and the :class:`~app.annotator.hub.DialogueHub`.

The protocol is JSON lines: one JSON object per line, UTF-8, ``\\n``-terminated, over TCP
(``QTcpServer``/``QTcpSocket``, driven by the Qt event loop, no threads) or in-process (a
:class:`LocalLink` pair, for the host's own window and solo mode, which never opens a socket).

A window's first message is ``{"type": "hello", "role": "user"|"assistant", "annotator": NAME}``;
every later request and answer is described in :mod:`app.annotator.hub`. A role already taken by
another connection is refused.

Safety (the host may face a whole LAN): :meth:`HubServer.listen` binds to loopback unless told
otherwise, and a host that accepts connections from other machines is given a one-time session
code (:func:`new_session_code`) that a TCP hello must carry (``"code": ...``, compared in constant
time); a connection without it is told so, closed, and never sees a message of the session, so a
role can only be taken by someone who holds the code. Before a good hello a connection may buffer
only :data:`HELLO_MAX_LINE` bytes and must say hello within :data:`HELLO_TIMEOUT_MS`; after it,
requests are at most :data:`REQUEST_MAX_LINE` bytes (a chat line or a command, never an image). At
most :data:`MAX_CONNECTIONS` sockets are served at once, a peer that stops reading is dropped once
:data:`MAX_UNSENT` bytes wait for it, and a closed connection's buffers are freed at once. A line
that is too long or not a JSON object is dropped with a logged reason (and an ``error`` answer);
it never stops the session.
"""

from __future__ import annotations

import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot
from PySide6.QtNetwork import QAbstractSocket, QHostAddress, QTcpServer, QTcpSocket

from app.annotator.hub import ROLES, DialogueHub, Outgoing

log = logging.getLogger("easel.annotator")

MAX_LINE = 64 * 2**20  # what a window accepts from the host: a 1024-pixel PNG preview is a few MB
REQUEST_MAX_LINE = 256 * 2**10  # what the host accepts from a window: chat, commands, names
HELLO_MAX_LINE = 4 * 2**10  # before the hello: a hello is a hundred bytes
HELLO_TIMEOUT_MS = 10_000
MAX_CONNECTIONS = 8  # two windows and their reconnects; more is someone else
MAX_UNSENT = 64 * 2**20  # bytes queued for a peer that does not read
MAX_ERRORS = 20  # bad lines from one connection before it is dropped
LOOPBACK = "127.0.0.1"
_CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i: read out loud or typed


def new_session_code(n: int = 10) -> str:
    """A one-time code for a LAN session (about 50 bits: far beyond guessing at a few tries a second)."""
    return "".join(secrets.choice(_CODE_ALPHABET) for _ in range(n))


def encode(msg: dict) -> bytes:
    return json.dumps(msg, separators=(",", ":")).encode("utf-8") + b"\n"


class LineBuffer:
    """Splits a byte stream into JSON messages; bad lines come out as ``ValueError`` items."""

    def __init__(self, max_line: int = MAX_LINE):
        self.buf = bytearray()
        self.max_line = max_line
        self.skipping = False  # inside a line too long to keep: drop bytes up to its newline

    def feed(self, data: bytes) -> list[dict | ValueError]:
        out: list[dict | ValueError] = []
        if self.skipping:
            i = data.find(b"\n")
            if i < 0:
                return out
            self.skipping = False
            data = data[i + 1:]
        self.buf.extend(data)
        while True:
            i = self.buf.find(b"\n")
            if i < 0:
                if len(self.buf) > self.max_line:
                    self.buf = bytearray()  # a new object: the old one's memory goes back now
                    self.skipping = True
                    out.append(ValueError(f"message longer than {self.max_line} bytes dropped"))
                return out
            line = bytes(self.buf[:i])
            del self.buf[:i + 1]
            if not line.strip():
                continue
            if len(line) > self.max_line:
                out.append(ValueError(f"message longer than {self.max_line} bytes dropped"))
                continue
            try:
                msg = json.loads(line.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                out.append(ValueError(f"not a JSON line: {exc}"))
                continue
            if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                out.append(ValueError("a message is a JSON object with a 'type'"))
                continue
            out.append(msg)


class Link(QObject):
    """One end of a connection: ``send`` a message, ``received`` emits the other end's."""

    received = Signal(dict)
    opened = Signal()
    closed = Signal(str)

    def send(self, msg: dict) -> None:  # pragma: no cover - subclasses implement it
        raise NotImplementedError

    def close(self) -> None:
        pass


class LocalLink(Link):
    """An in-process connection; delivery is queued on the event loop, like a socket's."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.peer: LocalLink | None = None
        self.is_open = True

    @classmethod
    def pair(cls) -> tuple[LocalLink, LocalLink]:
        a, b = cls(), cls()
        a.peer, b.peer = b, a
        QTimer.singleShot(0, a.opened.emit)
        QTimer.singleShot(0, b.opened.emit)
        return a, b

    def send(self, msg: dict) -> None:
        if not self.is_open or self.peer is None:
            return
        copy = json.loads(json.dumps(msg))  # what a socket would deliver: no shared objects
        peer = self.peer
        QTimer.singleShot(0, lambda: peer.is_open and peer.received.emit(copy))

    def close(self) -> None:
        if self.is_open:
            self.is_open = False
            peer = self.peer
            if peer is not None and peer.is_open:
                peer.is_open = False
                QTimer.singleShot(0, lambda: peer.closed.emit("the other side closed"))


class TcpLink(Link):
    """A JSON-lines connection over a QTcpSocket (client side, or a server's accepted socket)."""

    def __init__(self, socket: QTcpSocket | None = None, parent: QObject | None = None, *,
                 reconnect_ms: int = 0, code: str | None = None, max_line: int = MAX_LINE):
        super().__init__(parent)
        self.socket = socket or QTcpSocket(self)
        self.socket.setParent(self)
        self.max_line = max_line
        self.lines = LineBuffer(max_line)
        self.reconnect_ms = reconnect_ms  # a client keeps trying, so a restarted host is rejoined
        self.code = code  # the host's session code, added to this end's hello
        self.errors = 0
        self.target: tuple[str, int] | None = None
        self.socket.readyRead.connect(self._read)
        self.socket.connected.connect(self.opened.emit)
        self.socket.disconnected.connect(self._lost)
        self.socket.errorOccurred.connect(self._error)

    def connect_to(self, host: str, port: int) -> None:
        self.target = (host, port)
        self._retry()

    def _retry(self) -> None:
        if self.target is not None and \
                self.socket.state() == QAbstractSocket.SocketState.UnconnectedState:
            self.lines = LineBuffer(self.max_line)
            self.socket.connectToHost(*self.target)

    def _lost(self) -> None:
        self.closed.emit("disconnected")
        if self.reconnect_ms and self.target is not None:
            QTimer.singleShot(self.reconnect_ms, self._retry)

    def send(self, msg: dict) -> None:
        if self.socket.state() == QAbstractSocket.SocketState.ConnectedState:
            if msg.get("type") == "hello" and self.code:
                msg = {**msg, "code": self.code}
            if self.socket.bytesToWrite() > MAX_UNSENT:  # the peer stopped reading: let it go
                log.warning("dropping %s: %d bytes unsent", self.peer_name(), self.socket.bytesToWrite())
                self.socket.abort()
                return
            self.socket.write(encode(msg))

    def close(self) -> None:
        self.target = None
        self.socket.disconnectFromHost()

    def peer_name(self) -> str:
        return f"{self.socket.peerAddress().toString()}:{self.socket.peerPort()}"

    def set_max_line(self, n: int) -> None:
        self.max_line = self.lines.max_line = n

    def _read(self) -> None:
        for item in self.lines.feed(bytes(self.socket.readAll().data())):
            if isinstance(item, ValueError):
                self.errors += 1
                log.warning("dropped a message from %s: %s", self.peer_name(), item)
                self.send({"type": "error", "text": str(item)})
                if self.errors >= MAX_ERRORS:
                    log.warning("closing %s after %d bad messages", self.peer_name(), self.errors)
                    self.socket.abort()
                    return
            else:
                if item.get("type") == "error" and item.get("reason") == "code":
                    self.target = None  # retrying with the same code cannot help: stop reconnecting
                self.received.emit(item)

    def _error(self, _err) -> None:
        if self.socket.state() != QAbstractSocket.SocketState.ConnectedState:
            self.closed.emit(self.socket.errorString())
            if self.reconnect_ms and self.target is not None:
                QTimer.singleShot(self.reconnect_ms, self._retry)


def _name(link: Link) -> str:
    return link.peer_name() if isinstance(link, TcpLink) else "a local window"


def parse_address(text: str, default_port: int = 8765) -> tuple[str, int]:
    """``HOST:PORT`` (or ``HOST``) -> (host, port), with a clear error."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = text, str(default_port)
    if not host:
        raise ValueError(f"address {text!r} has no host; write HOST:PORT, e.g. 192.168.1.20:8765")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"port in {text!r} must be a number from 1 to 65535")
    return host.strip("[]"), int(port)


class _HubWorker(QObject):
    """Runs the hub in its own thread, so executing a command (a cutout takes seconds) or writing
    to the database never freezes a window; requests are handled one at a time, in order."""

    done = Signal(object)

    def __init__(self, factory: Callable[[], DialogueHub]):
        super().__init__()
        self.factory = factory
        self.hub: DialogueHub | None = None

    @Slot()
    def start(self) -> None:
        self.hub = self.factory()  # built here: its SQLite connection belongs to this thread

    @Slot(str, object)
    def call(self, method: str, args: object) -> None:
        try:
            outs = getattr(self.hub, method)(*args)
        except Exception as exc:  # noqa: BLE001 - a bug in one request must not kill the hub
            role = args[0] if args else None
            outs = [Outgoing(role, {"type": "error", "text": f"the host failed: {exc}"})]
        self.done.emit(outs)


class HubServer(QObject):
    """Routes messages between connected windows and the hub (TCP and in-process alike).

    ``HubServer(hub)`` calls the hub on the GUI thread (tests); ``HubServer(factory=...)`` builds the
    hub in a worker thread and calls it there (the app).
    """

    _request = Signal(str, object)

    def __init__(self, hub: DialogueHub | None = None, parent: QObject | None = None, *,
                 factory: Callable[[], DialogueHub] | None = None, code: str | None = None):
        super().__init__(parent)
        if (hub is None) == (factory is None):
            raise ValueError("give a hub or a factory that makes one")
        self.hub = hub
        self.code = code  # required in every TCP hello when set (see listen)
        self.server: QTcpServer | None = None
        self.roles: dict[Link, str] = {}
        self.links: list[Link] = []
        self.trusted: set[Link] = set()  # in-process windows, and TCP ones that gave the code
        self._arrived: dict[Link, float] = {}  # TCP connections yet to say hello, and since when
        self._sweeper = QTimer(self)
        self._sweeper.setInterval(500)
        self._sweeper.timeout.connect(self._sweep)
        self.thread: QThread | None = None
        if factory is not None:
            self.thread = QThread()
            self.worker = _HubWorker(factory)
            self.worker.moveToThread(self.thread)
            self.thread.started.connect(self.worker.start)
            self._request.connect(self.worker.call)
            self.worker.done.connect(self._route)
            self.thread.start()

    def _call(self, method: str, *args) -> None:
        if self.thread is None:
            self._route(getattr(self.hub, method)(*args))
        else:
            self._request.emit(method, args)

    def listen(self, host: str = LOOPBACK, port: int = 0) -> int:
        """Accept connections on ``host:port`` (0: any free port); returns the port.

        Any address but loopback needs a session code: one is made here if none was given.
        """
        if not QHostAddress(host).isLoopback() and not self.code:
            self.code = new_session_code()
        self.server = QTcpServer(self)
        self.server.setMaxPendingConnections(MAX_CONNECTIONS)
        self.server.newConnection.connect(self._accept)
        if not self.server.listen(QHostAddress(host), port):
            raise OSError(f"cannot listen on {host}:{port}: {self.server.errorString()}")
        return int(self.server.serverPort())

    def local_client(self) -> Link:
        """A connection for a window in this process."""
        client, server_end = LocalLink.pair()
        self.attach(server_end, trusted=True)
        return client

    def attach(self, link: Link, *, trusted: bool = True) -> None:
        link.setParent(self)
        self.links.append(link)
        if trusted:
            self.trusted.add(link)
        link.received.connect(lambda msg, link=link: self._message(link, msg))
        link.closed.connect(lambda _reason, link=link: self._closed(link))

    def _accept(self) -> None:
        while self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            tcp = sum(isinstance(x, TcpLink) for x in self.links)
            if tcp >= MAX_CONNECTIONS:
                log.warning("refused %s:%d: already %d connections", socket.peerAddress().toString(),
                            socket.peerPort(), tcp)
                socket.abort()
                socket.deleteLater()
                continue
            link = TcpLink(socket, max_line=HELLO_MAX_LINE)
            socket.setReadBufferSize(REQUEST_MAX_LINE)  # Qt's own buffer: bounded too
            self.attach(link, trusted=not self.code)
            self._arrived[link] = time.monotonic()
            if not self._sweeper.isActive():
                self._sweeper.start()

    def _sweep(self) -> None:
        """A connection that never says hello does not keep its place."""
        now = time.monotonic()
        for link, t in list(self._arrived.items()):
            if link not in self.links or link in self.roles:
                del self._arrived[link]
            elif now - t > HELLO_TIMEOUT_MS / 1000:
                del self._arrived[link]
                log.warning("closing %s: no hello within %d ms", _name(link), HELLO_TIMEOUT_MS)
                self._drop(link)
        if not self._arrived:
            self._sweeper.stop()

    def _drop(self, link: Link) -> None:
        if isinstance(link, TcpLink):
            link.socket.abort()  # emits disconnected -> _closed
        self._closed(link)

    def _message(self, link: Link, msg: dict) -> None:
        if link not in self.trusted:  # only a hello with the session code gets in
            code = msg.get("code") if msg.get("type") == "hello" else None
            if not isinstance(code, str) or not hmac.compare_digest(
                    code.encode("utf-8", "replace"), self.code.encode("utf-8")):
                log.warning("refused %s: %s", _name(link),
                            "wrong session code" if code is not None else "no session code")
                link.send({"type": "error", "fatal": True, "reason": "code",
                           "text": "this host needs its session code: join with --code CODE "
                                   "(the host printed it)"})
                if isinstance(link, TcpLink):
                    link.socket.flush()
                self._drop(link)
                return
            self.trusted.add(link)
        if msg.get("type") == "hello":
            role = msg.get("role")
            if role not in ROLES:
                link.send({"type": "error", "fatal": True,
                           "text": f"role must be user or assistant, got {str(role)[:40]!r}"})
                return
            if role in self.roles.values() and self.roles.get(link) != role:
                link.send({"type": "error", "fatal": True,
                           "text": f"the {role} role is already taken on this host"})
                return
            self.roles[link] = role
            if isinstance(link, TcpLink):  # a window now: requests may be longer than a hello
                link.set_max_line(REQUEST_MAX_LINE)
            self._call("connect", role, str(msg.get("annotator") or role)[:100])
            return
        role = self.roles.get(link)
        if role is None:
            link.send({"type": "error", "text": "say hello first: {\"type\": \"hello\", \"role\": ...}"})
            return
        self._call("handle", role, msg)

    def _closed(self, link: Link) -> None:
        if link not in self.links:
            return
        self.links.remove(link)
        self.trusted.discard(link)
        self._arrived.pop(link, None)
        if isinstance(link, TcpLink):
            # Its buffers go now, not when the server goes: Qt's socket is deleted and the line
            # buffer replaced (the small link object stays: deleting it under PySide6 while its
            # lambdas are connected crashed the event loop).
            link.lines = LineBuffer(0)
            link.socket.abort()
            link.socket.deleteLater()
        role = self.roles.pop(link, None)
        if role is not None and role not in self.roles.values():
            self._call("disconnect", role)

    def _route(self, outs: list[Outgoing]) -> None:
        for out in outs:
            for link, role in list(self.roles.items()):
                if out.to is None or out.to == role:
                    link.send(out.msg)

    def close(self) -> None:
        for link in list(self.links):
            link.close()
        if self.server is not None:
            self.server.close()
        if self.thread is not None:
            self.thread.quit()
            self.thread.wait(10000)
            self.thread = None
