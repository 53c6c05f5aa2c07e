"""The wire safety of the annotator's JSON lines that needs no Qt: encryption and nesting depth.

**Encryption** (a host with a session code, i.e. ``--lan``): nobody on the LAN may read or inject
messages. The host derives a master key once from the one-time code with scrypt (a random salt per
host run), and greets every connection with a plaintext challenge ``{"type": "sealed", "v": 1,
"salt": ..., "nonce": ...}`` carrying a fresh random nonce. Both ends derive two keys for that
connection from the master key and the nonce (BLAKE2b, one key per direction, so nothing sent can
be reflected back) and every later line is ``base64(SecretBox(seq || json))``, with ``seq`` a
64-bit counter per direction that must go up by one: a line replayed, reordered or taken from
another connection (another nonce) does not open. Opening the client's first line proves it holds
the code; the code itself never travels. A LAN eavesdropper who records a session could only guess
the code offline, one scrypt per guess, against about 50 bits.

**Nesting**: ``json.loads`` recurses once per ``[``/``{``; a line of 300,000 brackets raised
RecursionError in the host. :func:`too_deep` finds lines deeper than :data:`MAX_DEPTH` first, in C
speed (strings stripped by one regular expression, brackets counted with accumulate).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import itertools
import re
import secrets

MAX_DEPTH = 32  # our messages nest 4 deep at most
SCRYPT = {"n": 2**14, "r": 8, "p": 1, "maxmem": 64 * 2**20}  # about 50 ms, 16 MiB
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_BRACKET = re.compile(rb"[\[\]{}]")
_DELTA = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def too_deep(line: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether the JSON text ``line`` nests arrays/objects deeper than ``limit``."""
    if line.count(b"[") + line.count(b"{") <= limit:
        return False
    brackets = _BRACKET.findall(_STRING.sub(b"", line))
    return max(itertools.accumulate(_DELTA[b[0]] for b in brackets), default=0) > limit


class SealError(ValueError):
    """A line that does not open: wrong key (session code), replayed, reordered or damaged."""


def master_key(code: str, salt: bytes) -> bytes:
    """32 bytes from the session code (scrypt; slow on purpose: offline guessing costs)."""
    return hashlib.scrypt(code.encode("utf-8"), salt=salt, dklen=32, **SCRYPT)


class Channel:
    """One connection's sealing: :meth:`seal` what this end sends, :meth:`open` what it receives."""

    def __init__(self, master: bytes, nonce: bytes, *, side: str):
        from nacl.secret import SecretBox

        if side not in ("host", "client"):
            raise ValueError("side is host or client")

        def key(direction: bytes) -> bytes:
            return hashlib.blake2b(direction + nonce, key=master, digest_size=32).digest()

        out_dir, in_dir = (b"host->client", b"client->host") if side == "host" else \
            (b"client->host", b"host->client")
        self._out, self._in = SecretBox(key(out_dir)), SecretBox(key(in_dir))
        self._sent = 0
        self._received = 0

    def seal(self, plain: bytes) -> bytes:
        box = self._out.encrypt(self._sent.to_bytes(8, "big") + plain)
        self._sent += 1
        return base64.b64encode(bytes(box))

    def open(self, line: bytes) -> bytes:
        from nacl.exceptions import CryptoError

        try:
            plain = self._in.decrypt(base64.b64decode(line, validate=True))
        except (CryptoError, binascii.Error, ValueError) as exc:
            raise SealError("a line that does not open with this session's key") from exc
        seq = int.from_bytes(plain[:8], "big")
        if seq != self._received:
            raise SealError(f"a line out of order (number {seq}, expected {self._received}): replayed?")
        self._received += 1
        return plain[8:]


class HostKey:
    """The host's side: the master key made once, and a channel with a fresh nonce per connection."""

    def __init__(self, code: str):
        self.salt = secrets.token_bytes(16)
        self.master = master_key(code, self.salt)

    def greet(self) -> tuple[dict, Channel]:
        nonce = secrets.token_bytes(24)
        return ({"type": "sealed", "v": 1, "salt": self.salt.hex(), "nonce": nonce.hex()},
                Channel(self.master, nonce, side="host"))


_CLIENT_KEYS: dict[tuple[str, bytes], bytes] = {}  # (code, salt) -> master: a reconnect costs no scrypt


def client_channel(code: str, greeting: dict) -> Channel:
    """The client's channel from the host's challenge (ValueError if the challenge is malformed)."""
    try:
        if greeting.get("v") != 1:
            raise ValueError(f"unknown sealed protocol version {greeting.get('v')!r}")
        salt, nonce = bytes.fromhex(greeting["salt"]), bytes.fromhex(greeting["nonce"])
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"a malformed sealed greeting: {exc}") from None
    if len(salt) != 16 or len(nonce) != 24:
        raise ValueError("a malformed sealed greeting (salt or nonce of the wrong size)")
    if (code, salt) not in _CLIENT_KEYS:
        _CLIENT_KEYS[(code, salt)] = master_key(code, salt)
    return Channel(_CLIENT_KEYS[(code, salt)], nonce, side="client")
