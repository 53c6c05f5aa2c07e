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
that is too long, nests deeper than :data:`~app.annotator.seal.MAX_DEPTH` or is not a JSON object
is dropped with a logged reason (and an ``error`` answer); it never stops the session.

A host with a session code (``--lan``) encrypts the session (:mod:`app.annotator.seal`): the code
never travels, and a line that does not open with the key derived from it is refused. A refused
hello ends the connection at once: nothing sent behind it on the same connection is read. Refused
hellos are counted by :class:`HelloGuard`: each address backs off (doubling waits) and is locked
out after :data:`FAILS_PER_ADDRESS`; after :data:`FAILS_OVERALL` from everyone the host accepts no
new partner at all (restart it for a new code); the log reports every lockout. When all
:data:`MAX_CONNECTIONS` places are taken, the oldest connection still without a hello makes room,
so idle strangers never keep the partner out.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot
from PySide6.QtNetwork import QAbstractSocket, QHostAddress, QTcpServer, QTcpSocket

from app.annotator.hub import ROLES, DialogueHub, Outgoing
from app.annotator.seal import MAX_DEPTH, Channel, HostKey, SealError, client_channel, too_deep

log = logging.getLogger("easel.annotator")

MAX_LINE = 64 * 2**20  # what a window accepts from the host: a 1024-pixel PNG preview is a few MB
REQUEST_MAX_LINE = 256 * 2**10  # what the host accepts from a window: chat, commands, names
HELLO_MAX_LINE = 4 * 2**10  # before the hello: a hello is a hundred bytes
HELLO_TIMEOUT_MS = 3_000  # a window says hello within milliseconds of connecting
GREETING_TIMEOUT_MS = 10_000  # a client with a code waits this long for the host's sealed greeting
FAILS_PER_ADDRESS = 10  # refused hellos before an address is locked out
FAILS_OVERALL = 100  # refused hellos from everyone before the host takes no new partner
BACKOFF_S = 0.5  # an address's wait after its first refused hello; doubles with each one
MAX_BACKOFF_S = 30.0
LOCKOUT_S = 900.0
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


def parse_line(line: bytes, opener: Callable[[bytes], bytes] | None = None) -> dict | ValueError:
    """One line -> a message, or the ValueError saying why it is refused (never raises)."""
    if opener is not None:
        try:
            line = opener(line)
        except SealError as exc:
            return exc
    if too_deep(line):
        return ValueError(f"message nested deeper than {MAX_DEPTH} levels dropped")
    try:
        msg = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return ValueError(f"not a JSON line: {exc}")
    except RecursionError:  # too_deep missed it (cannot happen; belt and braces)
        return ValueError("message nested too deep dropped")
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        return ValueError("a message is a JSON object with a 'type'")
    return msg


class LineBuffer:
    """Splits a byte stream into JSON messages; bad lines come out as ``ValueError`` items."""

    def __init__(self, max_line: int = MAX_LINE):
        self.buf = bytearray()
        self.max_line = max_line
        self.skipping = False  # inside a line too long to keep: drop bytes up to its newline

    def feed(self, data: bytes) -> list[dict | ValueError]:
        return [x if isinstance(x, ValueError) else parse_line(x) for x in self.feed_raw(data)]

    def feed_raw(self, data: bytes) -> list[bytes | ValueError]:
        """The complete lines in ``data`` (without their newline), or why one was dropped."""
        out: list[bytes | ValueError] = []
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
            out.append(line)


class HelloGuard:
    """Counts refused hellos (wrong or missing session codes) per address and overall.

    After a refusal an address must wait :data:`BACKOFF_S`, doubling with every further one (at
    most :data:`MAX_BACKOFF_S`); connections it opens meanwhile are closed before anything is
    checked. At :data:`FAILS_PER_ADDRESS` it is locked out for :data:`LOCKOUT_S`; at
    :data:`FAILS_OVERALL` refusals from everyone no new connection is admitted until the host
    restarts (with a new code). Lockouts are logged as errors. The limits are read from the module
    when used, so tests can lower them.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self.fails: dict[str, int] = {}
        self.wait_until: dict[str, float] = {}
        self.total = 0
        self.burned = False

    def admit(self, address: str) -> str | None:
        """None if ``address`` may try a hello now, else why not (said to the connection)."""
        if self.burned:
            return ("this host has refused too many wrong session codes and takes no new partner; "
                    "ask the host to restart it (a new code)")
        left = self.wait_until.get(address, 0.0) - self.clock()
        if left > 0:
            if self.fails.get(address, 0) >= FAILS_PER_ADDRESS:
                return f"too many wrong session codes from {address}; locked out for {left:.0f} s"
            return f"a wrong session code came from {address} just now; try again in {left:.1f} s"
        return None

    def failed(self, address: str) -> None:
        n = self.fails[address] = self.fails.get(address, 0) + 1
        self.total += 1
        if n >= FAILS_PER_ADDRESS:
            self.wait_until[address] = self.clock() + LOCKOUT_S
            if n == FAILS_PER_ADDRESS:
                log.error("locked out %s for %.0f s after %d wrong session codes", address,
                          LOCKOUT_S, n)
        else:
            self.wait_until[address] = self.clock() + min(BACKOFF_S * 2 ** (n - 1), MAX_BACKOFF_S)
        if self.total >= FAILS_OVERALL and not self.burned:
            self.burned = True
            log.error("%d wrong session codes from %d address(es): no new partner is admitted any "
                      "more; restart the host for a new code", self.total, len(self.fails))

    def succeeded(self, address: str) -> None:
        self.fails.pop(address, None)
        self.wait_until.pop(address, None)


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
    """A JSON-lines connection over a QTcpSocket (client side, or a server's accepted socket).

    With a session ``code`` (client) the link waits for the host's sealed greeting before it
    says it is open, and then seals everything it sends; a host's accepted socket is given its
    :class:`~app.annotator.seal.Channel` by the server (``channel``).
    """

    unopened = Signal(str)  # host side: a line that does not open with the session key

    def __init__(self, socket: QTcpSocket | None = None, parent: QObject | None = None, *,
                 reconnect_ms: int = 0, code: str | None = None, max_line: int = MAX_LINE):
        super().__init__(parent)
        self.socket = socket or QTcpSocket(self)
        self.socket.setParent(self)
        self.max_line = max_line
        self.lines = LineBuffer(max_line)
        self.reconnect_ms = reconnect_ms  # a client keeps trying, so a restarted host is rejoined
        self.code = code  # the host's session code: the session is sealed with a key made from it
        self.channel: Channel | None = None
        self.authenticated = False  # host side: a line opened (the peer holds the code)
        self._greeted = False  # client side: the host's greeting came
        self._host_spoke = False  # client side: a sealed line from the host opened
        self.stopped = False  # refused: nothing more is read from this connection
        self.errors = 0
        self.target: tuple[str, int] | None = None
        self.socket.readyRead.connect(self._read)
        self.socket.connected.connect(self._connected)
        self.socket.disconnected.connect(self._lost)
        self.socket.errorOccurred.connect(self._error)

    def connect_to(self, host: str, port: int) -> None:
        self.target = (host, port)
        self._retry()

    def _retry(self) -> None:
        if self.target is not None and \
                self.socket.state() == QAbstractSocket.SocketState.UnconnectedState:
            self.lines = LineBuffer(self.max_line)
            self.channel, self._greeted, self._host_spoke, self.stopped = None, False, False, False
            self.socket.connectToHost(*self.target)

    def _connected(self) -> None:
        if not self.code:
            self.opened.emit()
            return
        # the host's greeting first; a host that sends none is not the one that printed the code
        QTimer.singleShot(GREETING_TIMEOUT_MS, self, self._greeting_late)

    def _greeting_late(self) -> None:
        if not self._greeted and self.socket.state() == QAbstractSocket.SocketState.ConnectedState:
            self.received.emit({"type": "error", "text": "the host did not offer an encrypted session: "
                                "is it an Easel host started with --lan?"})
            self.socket.abort()

    def _lost(self) -> None:
        self.closed.emit("disconnected")
        if self.reconnect_ms and self.target is not None:
            QTimer.singleShot(self.reconnect_ms, self._retry)

    def send(self, msg: dict) -> None:
        if self.code and self.channel is None:
            return  # nothing travels in the clear from a client that holds a code
        data = encode(msg)
        if self.channel is not None:
            data = self.channel.seal(data[:-1]) + b"\n"
        self._write(data)

    def send_plain(self, msg: dict) -> None:
        """An unsealed line (the host's greeting and refusals, for a peer without the key)."""
        self._write(encode(msg))

    def _write(self, data: bytes) -> None:
        try:
            if self.socket.state() != QAbstractSocket.SocketState.ConnectedState:
                return
            if self.socket.bytesToWrite() > MAX_UNSENT:  # the peer stopped reading: let it go
                log.warning("dropping %s: %d bytes unsent", self.peer_name(), self.socket.bytesToWrite())
                self.socket.abort()
                return
            self.socket.write(data)
        except RuntimeError:  # the Qt socket is already deleted: the connection is gone
            pass

    def close(self) -> None:
        self.target = None
        with contextlib.suppress(RuntimeError):
            self.socket.disconnectFromHost()

    def stop(self) -> None:
        """Read nothing more from this connection (its hello was refused)."""
        self.stopped = True
        self.lines = LineBuffer(0)

    def peer_name(self) -> str:
        try:
            return f"{self.socket.peerAddress().toString()}:{self.socket.peerPort()}"
        except RuntimeError:
            return "a closed connection"

    def set_max_line(self, n: int) -> None:
        self.max_line = self.lines.max_line = n

    def _parse(self, line: bytes) -> dict | ValueError | None:
        """One raw line under this link's sealing state (None: consumed here)."""
        if self.code and not self._greeted:  # client: the host's plaintext greeting or refusal
            msg = parse_line(line)
            if isinstance(msg, dict) and msg.get("type") == "sealed":
                try:
                    self.channel = client_channel(self.code, msg)
                except ValueError as exc:
                    return exc
                self._greeted = True
                self.opened.emit()
                return None
            if isinstance(msg, dict) and msg.get("type") != "error":
                return ValueError("the host did not offer an encrypted session")
            return msg
        if self.channel is None:
            return parse_line(line)
        msg = parse_line(line, self.channel.open)
        if isinstance(msg, SealError):
            if self.code and not self._host_spoke:  # a refusal the host could not seal for us
                plain = parse_line(line)
                if isinstance(plain, dict) and plain.get("type") == "error":
                    return plain
            elif not self.code and not self.authenticated:
                self.unopened.emit(str(msg))
                return None
        elif isinstance(msg, dict):
            self._host_spoke = True
            self.authenticated = True
        return msg

    def _read(self) -> None:
        try:
            data = bytes(self.socket.readAll().data())
        except RuntimeError:
            return
        for raw in self.lines.feed_raw(data):
            if self.stopped:
                return  # refused: whatever was pipelined behind the hello is never read
            item = raw if isinstance(raw, ValueError) else self._parse(raw)
            if item is None:
                continue
            if isinstance(item, ValueError):
                self.errors += 1
                log.warning("dropped a message from %s: %s", self.peer_name(), item)
                reply = self.send if self.authenticated or self.channel is None else self.send_plain
                reply({"type": "error", "text": str(item)})
                if self.errors >= MAX_ERRORS:
                    log.warning("closing %s after %d bad messages", self.peer_name(), self.errors)
                    self.stop()
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
                 factory: Callable[[], DialogueHub] | None = None, code: str | None = None,
                 sealed: bool = True):
        super().__init__(parent)
        if (hub is None) == (factory is None):
            raise ValueError("give a hub or a factory that makes one")
        self.hub = hub
        self.code = code  # required of every TCP peer when set (see listen)
        self.sealed = sealed  # with a code: the session is encrypted with a key made from it
        self.key: HostKey | None = None
        self.guard = HelloGuard()
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
        if self.code and self.sealed and self.key is None:
            self.key = HostKey(self.code)
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
            address = socket.peerAddress().toString()
            tcp = [x for x in self.links if isinstance(x, TcpLink)]
            if len(tcp) >= MAX_CONNECTIONS:
                waiting = [x for x in self._arrived if x in self.links and x not in self.roles]
                if waiting:  # the oldest connection without a hello makes room
                    oldest = min(waiting, key=self._arrived.__getitem__)
                    log.warning("closing %s: the oldest of %d connections without a hello, to make "
                                "room", _name(oldest), len(waiting))
                    self._drop(oldest)
                else:
                    log.warning("refused %s:%d: already %d connections", address,
                                socket.peerPort(), len(tcp))
                    socket.abort()
                    socket.deleteLater()
                    continue
            link = TcpLink(socket, max_line=HELLO_MAX_LINE)
            socket.setReadBufferSize(REQUEST_MAX_LINE)  # Qt's own buffer: bounded too
            self.attach(link, trusted=not self.code)
            link.unopened.connect(lambda reason, link=link: self._refuse(link, "wrong session code", reason))
            if self.code:
                why = self.guard.admit(address)
                if why is not None:  # backing off or locked out: nothing is checked
                    log.warning("refused %s: %s", _name(link), why)
                    link.send_plain({"type": "error", "fatal": True, "reason": "locked", "text": why})
                    self._drop(link)
                    continue
            if self.key is not None:
                greeting, link.channel = self.key.greet()
                link.send_plain(greeting)
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
            link.stop()
            try:
                link.socket.flush()
                link.socket.abort()  # emits disconnected -> _closed
            except RuntimeError:
                pass
        self._closed(link)

    def _refuse(self, link: Link, what: str, detail: str = "") -> None:
        """A hello without the session code: counted, answered in the clear, and the connection
        closed before anything behind it is read."""
        if link not in self.links:
            return
        address = link.socket.peerAddress().toString() if isinstance(link, TcpLink) else "local"
        log.warning("refused %s: %s%s", _name(link), what, f" ({detail})" if detail else "")
        self.guard.failed(address)
        msg = {"type": "error", "fatal": True, "reason": "code",
               "text": "this host needs its session code: join with --code CODE (the host printed it)"}
        if isinstance(link, TcpLink):
            link.send_plain(msg)
        else:
            link.send(msg)
        self._drop(link)

    def _message(self, link: Link, msg: dict) -> None:
        if link not in self.links:
            return  # closed: a line that was already on its way is not acted on
        if link not in self.trusted:  # only the session code gets in
            if isinstance(link, TcpLink) and link.channel is not None:
                ok = link.authenticated  # the line opened with the key made from the code
            else:
                code = msg.get("code") if msg.get("type") == "hello" else None
                ok = isinstance(code, str) and hmac.compare_digest(
                    code.encode("utf-8", "replace"), self.code.encode("utf-8"))
            if not ok or msg.get("type") != "hello":
                self._refuse(link, "no session code" if msg.get("code") is None else "wrong session code")
                return
            self.trusted.add(link)
            if isinstance(link, TcpLink):
                self.guard.succeeded(link.socket.peerAddress().toString())
        if msg.get("type") == "hello":
            role = msg.get("role")
            problem = None
            if role not in ROLES:
                problem = f"role must be user or assistant, got {str(role)[:40]!r}"
            elif role in self.roles.values() and self.roles.get(link) != role:
                problem = f"the {role} role is already taken on this host"
            if problem:
                link.send({"type": "error", "fatal": True, "text": problem})
                if isinstance(link, TcpLink):  # refused: nothing behind this hello is read
                    log.warning("refused %s: %s", _name(link), problem)
                    self._drop(link)
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
            link.stop()
            try:
                link.socket.abort()
                link.socket.deleteLater()
            except RuntimeError:
                pass
        role = self.roles.pop(link, None)
        if role is not None and role not in self.roles.values():
            self._call("disconnect", role)

    def _route(self, outs: list[Outgoing]) -> None:
        for out in outs:
            for link, role in list(self.roles.items()):
                if link not in self.links:  # closed since: its role was freed in _closed
                    continue
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
