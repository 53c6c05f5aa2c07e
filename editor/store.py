"""The profile database: SQLite (sqlite-utils, WAL mode) plus content-addressed pixel files.

Rows are committed as they happen, so a crash loses at most the write in flight; rows written inside
:meth:`Store.transaction` (one chat turn: the user's words, the versions, the head move, the reply)
are committed together or not at all. Version pixels are lossless PNG files named by the SHA-256 of
dtype, shape and pixel bytes, in ``versions/`` beside the database: identical images are stored
once, and reading one back gives the same array bit for bit. Pixels are written before the rows that
name them, so a crash can leave a file no row names but never a row without its file; such files
are collected the next time the store is opened (:meth:`Store.collect_garbage`).

Two processes may open one profile at once (two ``edit --db`` runs, the app and the annotator):
every connection waits up to :data:`BUSY_TIMEOUT_S` for the other's write lock, and schema creation
and every write take the lock before reading (``BEGIN IMMEDIATE``), so neither fails with
"database is locked".
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np
import sqlite_utils

from editor.files import clean_partials, default_profile_dir, partial_name

# 2: turns.commands, the JSON list of command lines a turn ran (a turn may run several).
SCHEMA_VERSION = 2
BUSY_TIMEOUT_S = 30.0  # longer than any turn's write (a few ms) and any schema creation
# Unreferenced pixel files younger than this are left alone: another process may have written
# them for a turn whose rows it has not committed yet.
GARBAGE_GRACE_S = 600.0
_HEX64 = re.compile(r"[0-9a-f]{64}")
_SELECTION_REF = re.compile(r"\bselection ([0-9a-f]{64})\b")  # a stored selection mask, named by an edit
REBUILD_DEPTH = 200  # lost files in a row that :meth:`Store.rebuild` replays, at most

_SCHEMA = (
    "create table if not exists documents (id text primary key, title text, source_path text, "
    "created float, updated float, head text, exif blob, icc_profile blob, format text, "
    "closed integer)",
    "create table if not exists versions (id text primary key, document_id text "
    "references documents(id), parent_id text, command text, pixels text, width integer, "
    "height integer, channels integer, dtype text, created float, seq integer)",
    "create index if not exists idx_versions_document_id_seq on versions (document_id, seq)",
    "create table if not exists turns (id text primary key, document_id text, seq integer, "
    "role text, text text, command text, version_id text, created float, data text, commands text)",
    "create index if not exists idx_turns_document_id_seq on turns (document_id, seq)",
    "create table if not exists meta (key text primary key, value text)",
)


def pixel_hash(pixels: np.ndarray) -> str:
    h = hashlib.sha256()
    h.update(f"{pixels.dtype.str}{pixels.shape}".encode())
    h.update(np.ascontiguousarray(pixels).data)
    return h.hexdigest()


def new_id() -> str:
    return uuid.uuid4().hex


class Store:
    """One profile's database and its pixel files.

    >>> store = Store(tmp_path / "easel.db")                # doctest: +SKIP
    >>> h = store.put_pixels(np.zeros((2, 2, 3), np.uint8))  # doctest: +SKIP
    """

    # How an edit's command line is run again on its parent's pixels (set by the agent layer,
    # which knows the commands: ``agent.edits.run.replay``); None: lost edits stay lost.
    replay: Callable[[str, np.ndarray], np.ndarray] | None = None

    def __init__(self, path: str | os.PathLike | None = None):
        if path is None:
            path = default_profile_dir() / "easel.db"
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.blobs = self.path.parent / "versions"
        self.blobs.mkdir(exist_ok=True)
        self._local = threading.local()  # a turn's pending rows belong to the thread running it
        self.db = sqlite_utils.Database(connect(self.path))
        self._create_tables()
        with contextlib.suppress(OSError):  # a read-only or vanishing file is not worth failing for
            self.prune_empty_documents()
            self.collect_garbage()

    def close(self) -> None:
        self.db.close()

    # -- schema ----------------------------------------------------------------------------------

    def _create_tables(self) -> None:
        """Create or migrate the schema in one write transaction (safe against a second process
        doing the same at the same moment: it waits, then finds everything there)."""
        conn = self.db.conn
        with _immediate(conn):
            for sql in _SCHEMA:
                conn.execute(sql)
            columns = {r[1] for r in conn.execute("pragma table_info(turns)")}
            if "commands" not in columns:  # a schema-1 profile: keep its turns, list their command
                conn.execute("alter table turns add column commands text")
                rows = conn.execute("select id, command from turns where command is not null "
                                    "and role = 'assistant'").fetchall()
                conn.executemany("update turns set commands = ? where id = ?",
                                 [(json.dumps([c]), i) for i, c in rows])
            old = conn.execute("select value from meta where key = 'schema_version'").fetchone()
            if old is None or int(old[0]) < SCHEMA_VERSION:
                conn.execute("insert or replace into meta (key, value) values ('schema_version', ?)",
                             [str(SCHEMA_VERSION)])

    # -- pixels ----------------------------------------------------------------------------------

    def _blob_path(self, digest: str) -> Path:
        return self.blobs / digest[:2] / f"{digest}.png"

    def put_pixels(self, pixels: np.ndarray) -> str:
        """Store pixels losslessly (once per content) and return their hash."""
        digest = pixel_hash(pixels)
        path = self._blob_path(digest)
        if path.exists():
            # fresh again, so a garbage collection in another process leaves it to this turn
            with contextlib.suppress(OSError):
                os.utime(path)
            if path.exists():
                return digest
        path.parent.mkdir(exist_ok=True)
        arr = pixels
        if arr.ndim == 3 and arr.shape[2] == 3:
            arr = cv2.cvtColor(arr, cv2.COLOR_RGB2BGR)
        elif arr.ndim == 3 and arr.shape[2] == 4:
            arr = cv2.cvtColor(arr, cv2.COLOR_RGBA2BGRA)
        ok, buf = cv2.imencode(".png", arr, [cv2.IMWRITE_PNG_COMPRESSION, 1])
        if not ok:
            raise OSError(f"could not encode version {digest}")
        # a hidden name with our process id: a kill or a full disk between here and the rename
        # leaves a file the next start removes (collect_garbage, editor.files.clean_partials)
        tmp = partial_name(path)
        try:
            with open(tmp, "xb") as f:
                f.write(buf.tobytes())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        return digest

    def prune_empty_documents(self, grace: float | None = None) -> int:
        """Delete documents a full disk or a kill left empty: no turn, nothing but the original
        version, and the original's pixel file never written; returns how many.

        Only documents older than ``grace`` seconds (default :data:`GARBAGE_GRACE_S`) go: another
        process may still be writing a new document's first file. Their pixel files, if any
        appear later, are then collected as garbage.
        """
        cutoff = time.time() - (GARBAGE_GRACE_S if grace is None else grace)
        rows = self.db.conn.execute(
            "select d.id, min(v.pixels) from documents d join versions v on v.document_id = d.id "
            "where d.created < ? and not exists (select 1 from turns t where t.document_id = d.id) "
            "group by d.id having count(v.id) = 1", [cutoff]).fetchall()
        empty = [doc_id for doc_id, digest in rows if not self._blob_path(digest).exists()]
        if empty:
            marks = ", ".join("?" for _ in empty)
            with _immediate(self.db.conn):
                self.db.conn.execute(f"delete from versions where document_id in ({marks})", empty)
                self.db.conn.execute(f"delete from documents where id in ({marks})", empty)
        return len(empty)

    def collect_garbage(self, grace: float | None = None) -> int:
        """Delete pixel files no version names (left by a crash between the pixels and the rows),
        and half-written ``.part`` files; returns how many were deleted.

        Only files older than ``grace`` seconds (default :data:`GARBAGE_GRACE_S`) go, because a
        second process may be between writing a turn's pixels and committing its rows.
        """
        grace = GARBAGE_GRACE_S if grace is None else grace
        cutoff = time.time() - grace
        used = {r[0] for r in self.db.conn.execute("select distinct pixels from versions")}
        # the masks of selections that edits used, named in their command lines (agent.edits.run.replay)
        for (command,) in self.db.conn.execute("select command from versions where command like '%selection %'"):
            used.update(_SELECTION_REF.findall(command or ""))
        removed = 0
        for folder in [self.path.parent, *self.blobs.glob("??")]:  # partials of dead writers
            removed += clean_partials(folder)
        for f in self.blobs.glob("??/*"):
            if f.suffix == ".png" and (f.stem in used or not _HEX64.fullmatch(f.stem)):
                continue  # named by a version, or not a file this store wrote
            if f.name.startswith("."):
                continue  # a partial file of ours: clean_partials decides by its writer
            if f.suffix not in (".png", ".part"):
                continue
            try:
                if f.stat().st_mtime < cutoff:
                    f.unlink()
                    removed += 1
            except FileNotFoundError:
                pass
        return removed

    def get_pixels(self, digest: str) -> np.ndarray:
        """The pixels named ``digest``. A lost file is made again where that gives the same pixels
        bit for bit (:meth:`rebuild`); otherwise FileNotFoundError."""
        try:
            return self._read_pixels(digest)
        except FileNotFoundError:
            pixels = self.rebuild(digest)
            if pixels is None:
                raise
            return pixels

    def rebuild(self, digest: str, _depth: int = 0) -> np.ndarray | None:
        """Make a lost pixel file again: an original is read from its source file, an edit is
        replayed (:attr:`replay`) on its parent's pixels. Kept, and written back, only when the
        result hashes to ``digest``; None when no way gives the same pixels.

        A crash right after an edit in the window (whose files are written after the turn,
        :mod:`app.storage`) then loses nothing: edits are deterministic.
        """
        if _depth > REBUILD_DEPTH:
            return None
        rows = self.db.conn.execute(
            "select v.command, d.source_path, p.pixels from versions v join documents d on "
            "d.id = v.document_id left join versions p on p.id = v.parent_id where v.pixels = ?",
            [digest]).fetchall()
        for command, source_path, parent_digest in rows:
            try:
                if parent_digest is None:
                    if not source_path:
                        continue
                    from editor.imageio import read_image

                    pixels = read_image(source_path).pixels
                elif command and self.replay is not None:
                    try:
                        parent = self._read_pixels(parent_digest)
                    except FileNotFoundError:
                        parent = self.rebuild(parent_digest, _depth + 1)
                    if parent is None:
                        continue
                    pixels = self.replay(command, parent)
                else:
                    continue
            except Exception:  # noqa: BLE001 - a source gone or a replay that fails: try the next row
                continue
            if pixels is not None and pixel_hash(pixels) == digest:
                with contextlib.suppress(OSError):
                    Store.put_pixels(self, pixels)  # on disk again, for next time
                return pixels
        return None

    def _read_pixels(self, digest: str) -> np.ndarray:
        path = self._blob_path(digest)
        arr = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if arr is None:
            raise FileNotFoundError(f"version pixels {digest} are missing from {self.blobs}")
        if arr.ndim == 3 and arr.shape[2] == 3:
            arr = cv2.cvtColor(arr, cv2.COLOR_BGR2RGB)
        elif arr.ndim == 3 and arr.shape[2] == 4:
            arr = cv2.cvtColor(arr, cv2.COLOR_BGRA2RGBA)
        return arr

    # -- rows ------------------------------------------------------------------------------------

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Rows written inside (on this thread) are committed together when the block ends, or
        dropped if it raises; pixels are written at once, so they are on disk before their rows.

        Nested blocks join the outermost one. While a block is open its rows are not yet readable
        from the database (the :class:`~editor.document.Document` keeps them in memory).
        """
        if getattr(self._local, "pending", None) is not None:
            yield
            return
        self._local.pending = []
        self._local.undo = []
        try:
            yield
        except BaseException:
            for fn in reversed(self._local.undo):
                fn()
            raise
        finally:
            pending = self._local.pending
            self._local.pending = self._local.undo = None
        self._write(pending)

    def on_rollback(self, fn: Callable[[], None]) -> None:
        """Call ``fn`` if the open transaction is dropped (to forget what memory already holds)."""
        if getattr(self._local, "undo", None) is not None:
            self._local.undo.append(fn)

    def _write(self, ops: list[Callable]) -> None:
        if not ops:
            return
        conn = self.db.conn
        with _immediate(conn):
            for op in ops:
                op(conn)

    def _queue(self, op: Callable) -> None:
        pending = getattr(self._local, "pending", None)
        if pending is None:
            self._write([op])
        else:
            pending.append(op)

    def insert(self, table: str, row: dict) -> dict:
        cols = list(row)
        sql = (f"insert into [{table}] ({', '.join(f'[{c}]' for c in cols)}) "
               f"values ({', '.join('?' for _ in cols)})")
        values = [row[c] for c in cols]
        self._queue(lambda conn: conn.execute(sql, values))
        return row

    def update(self, table: str, pk: str, values: dict) -> None:
        cols = list(values)
        sql = f"update [{table}] set {', '.join(f'[{c}] = ?' for c in cols)} where id = ?"
        args = [values[c] for c in cols] + [pk]
        self._queue(lambda conn: conn.execute(sql, args))

    def rows(self, table: str, where: str | None = None, args: list | dict | None = None,
             order_by: str | None = None) -> list[dict]:
        return list(self.db[table].rows_where(where, args, order_by=order_by))

    def document(self, doc_id: str) -> dict | None:
        """One document's row (title, head, source path, ...), or None when there is no such document."""
        return next(iter(self.rows("documents", "id = ?", [doc_id])), None)

    def documents(self, *, counts: bool = False) -> list[dict]:
        """Documents, newest first (the "reopen an earlier session" list); ``counts=True`` adds each
        one's ``n_versions`` and ``n_turns``."""
        docs = self.rows("documents", order_by="updated desc")
        if counts:
            n = {table: dict(self.db.execute(f"select document_id, count(*) from {table} group by document_id"
                                             ).fetchall()) for table in ("versions", "turns")}
            for d in docs:
                d["n_versions"], d["n_turns"] = n["versions"].get(d["id"], 0), n["turns"].get(d["id"], 0)
        return docs

    def add_turn(self, document_id: str, role: str, text: str, *, command: str | None = None,
                 commands: list[str] | None = None, version_id: str | None = None,
                 data: dict | None = None) -> dict:
        """Append a turn: ``text`` is what was said, word for word; ``commands`` the command
        lines the turn ran, in order (``command``, kept for older readers, is the last of them)."""
        if commands is None and command is not None:
            commands = [command]
        row = {
            "id": new_id(), "document_id": document_id, "seq": None, "role": role, "text": text,
            "command": commands[-1] if commands else None,
            "commands": json.dumps(commands) if commands else None, "version_id": version_id,
            "created": time.time(), "data": json.dumps(data) if data is not None else None,
        }

        def op(conn) -> None:  # the number is taken under the write lock: no two turns share one
            row["seq"] = conn.execute(
                "select coalesce(max(seq), -1) + 1 from turns where document_id = ?", [document_id]
            ).fetchone()[0]
            cols = list(row)
            conn.execute(f"insert into turns ({', '.join(cols)}) values ({', '.join('?' for _ in cols)})",
                         [row[c] for c in cols])

        self._queue(op)
        return row

    def turns(self, document_id: str) -> list[dict]:
        """The turns of a conversation in order; ``commands`` decoded to a list."""
        rows = self.rows("turns", "document_id = ?", [document_id], order_by="seq")
        for r in rows:
            try:
                r["commands"] = json.loads(r.get("commands") or "null") or (
                    [r["command"]] if r.get("command") else [])
            except ValueError:
                r["commands"] = [r["command"]] if r.get("command") else []
        return rows


def connect(path: str | os.PathLike):
    """A connection to ``path`` in WAL mode that waits for other processes' locks.

    It comes from the SQLite module sqlite-utils uses (pysqlite3 when installed): two SQLite
    libraries on one file in one process break each other's POSIX locks. Any thread may use it
    (the app hands it to a worker while the GUI waits).
    """
    from sqlite_utils.utils import sqlite3

    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S, check_same_thread=False)
    conn.execute(f"pragma busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
    wal_mode(conn)
    return conn


def wal_mode(conn, wait_s: float = BUSY_TIMEOUT_S) -> None:
    """Switch ``conn``'s database to WAL. Two processes opening a fresh file at the same instant can
    get "database is locked" here at once: SQLite does not run the busy handler for this switch,
    so it is retried until the other process has finished making the file."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            if conn.execute("pragma journal_mode").fetchone()[0] != "wal":
                conn.execute("pragma journal_mode = wal")
            return
        except Exception as exc:  # the sqlite module's OperationalError (sqlite3 or pysqlite3)
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@contextlib.contextmanager
def _immediate(conn) -> Iterator[None]:
    """One write transaction that holds the write lock from its start (``BEGIN IMMEDIATE``): a
    deferred one that reads first cannot wait for the lock later and fails at once."""
    if conn.in_transaction:  # someone's implicit transaction: end it, it is not ours to extend
        conn.commit()
    conn.execute("begin immediate")
    try:
        yield
        conn.commit()
    except BaseException:
        conn.rollback()
        raise
