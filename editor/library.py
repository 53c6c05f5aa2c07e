"""The image library's storage: one row per photo, a full-text index and a vector index.

This module only stores and ranks; what a photo shows (its description) and how a query becomes a
vector are decided in :mod:`agent.search.library`. Three tables live in the profile database:

- ``library_images``: path, content hash, size, mtime, pixel size, EXIF date, description,
  keywords, concepts (JSON) and whether OCR was run; its integer ``id`` is the rowid of the other two;
- ``library_fts``: an FTS5 table (Porter stemming, so "cats" finds "cat") over description,
  keywords, OCR text and the words of the path; ranked by bm25;
- ``library_vec``: a sqlite-vec ``vec0`` table of unit-length float32 embeddings, cosine distance;
- ``library_bits`` and ``library_floats``: for large libraries, each embedding binary-quantised by
  sqlite-vec (one sign bit a dimension, 48 bytes) and as float32, in plain tables. Up to :data:`EXACT_LIMIT` photos a
  query is an exact ``vec0`` KNN; above it, ``vec0``'s scan costs about 2 us a row whatever the
  vector type (measured: 200 ms at 100k for float and for bit vectors alike), so the query takes the
  ``RESCORE`` x k nearest by ``vec_distance_hamming`` over the bit column (about 55 ms at 100k) and
  re-ranks them by exact ``vec_distance_cosine`` (binary quantisation with rescoring).

Python's own ``sqlite3`` may be built without extension loading (it is on this platform), so the
connection comes from ``pysqlite3`` (a wheel with a current SQLite and extensions enabled) when it
is installed. That is also why the library has its own file, ``library.db`` beside the profile's
``easel.db``, rather than tables in it: two copies of the SQLite library in one process must never
open the same file, since closing a file in one drops the POSIX locks the other holds and the
database gets corrupted (sqlite.org/howtocorrupt.html, section 2.2). ``easel.db`` belongs to
Python's ``sqlite3`` (the Store), ``library.db`` to this module. Connections are per thread: a
library opened in the GUI thread can be searched from a worker.

Ranking combines the two indexes by reciprocal rank fusion (RRF, Cormack et al. 2009): bm25 scores
and cosine similarities are on unrelated scales, and bm25's scale changes with the query's length
and the collection, so adding them needs weights that hold for one collection only. RRF uses ranks
alone, has one constant (k=60, the published default) and rewards a photo that both indexes rank
high. ``bench/library.py`` measures it against each index alone and a normalised weighted sum.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

EMBED_DIM = 384
RRF_K = 60
EXACT_LIMIT = 20000  # entries up to which vector search is exact float KNN
RESCORE = 8  # binary-quantised candidates per result kept, re-ranked by exact cosine

_STOPWORD_TEXT = (
    "a an the of and or in on at to for with me my i you please find show search look looking "
    "image images picture pictures photo photos some any that this is are be can could would like "
    "want get give from by it its"
)
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())


class LibraryError(RuntimeError):
    """The library database cannot be used (no vector extension, unreadable file)."""


def default_library_path() -> Path:
    """``library.db`` in the profile folder (beside :class:`editor.store.Store`'s ``easel.db``)."""
    from editor.files import default_profile_dir

    return default_profile_dir() / "library.db"


def sqlite_module():
    """The DB-API module that can load sqlite-vec: ``pysqlite3`` if installed, else ``sqlite3``."""
    try:
        import pysqlite3.dbapi2 as sqlite  # extensions enabled, current SQLite with FTS5

        return sqlite
    except ImportError:
        import sqlite3

        return sqlite3


def connect(path: str | os.PathLike):
    """A connection to ``path`` with sqlite-vec loaded and WAL on."""
    import sqlite_vec

    from editor.store import wal_mode

    sqlite = sqlite_module()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite.connect(str(path), timeout=30, check_same_thread=False)
    if not hasattr(conn, "enable_load_extension"):
        raise LibraryError(
            "this Python's sqlite3 cannot load extensions, so sqlite-vec is unavailable; "
            "install pysqlite3-binary (`make setup` does)")
    conn.enable_load_extension(True)
    sqlite_vec.load(conn)
    conn.enable_load_extension(False)
    wal_mode(conn)
    conn.execute("pragma synchronous=normal")
    return conn


@dataclass(frozen=True)
class Entry:
    """One indexed photo."""

    id: int
    path: str
    hash: str
    size: int
    mtime: float
    width: int
    height: int
    exif_date: str | None
    description: str
    keywords: str
    concepts: list[str]
    ocr: bool
    text: str

    @classmethod
    def from_row(cls, row) -> Entry:
        (id_, path, hash_, size, mtime, width, height, exif_date, description, keywords, concepts,
         ocr, text) = row
        return cls(id_, path, hash_, size, mtime, width, height, exif_date, description,
                   keywords or "", json.loads(concepts or "[]"), bool(ocr), text or "")


_COLUMNS = ("id, path, hash, size, mtime, width, height, exif_date, description, keywords, "
            "concepts, ocr, text")


@dataclass(frozen=True)
class Hit:
    """A ranked search result: the entry, its fused score and its rank in each index (or None)."""

    entry: Entry
    score: float
    text_rank: int | None
    vector_rank: int | None
    similarity: float | None  # cosine similarity to the query, when the vector index returned it


def path_words(path: str) -> str:
    """The words of a file path ("Holidays/rome_2019/IMG_0042.jpg" -> "Holidays rome 2019 IMG 0042")."""
    stem = os.path.splitext(path)[0]
    parts = Path(stem).parts[-4:]  # the file and its nearest folders, not /home/user/...
    return " ".join(w for w in re.split(r"[^0-9A-Za-z]+", " ".join(parts)) if w)


def fts_query(text: str) -> str | None:
    """An FTS5 MATCH expression: the query's content words, any of them (bm25 ranks more matches
    higher); ``None`` when no content word is left."""
    words = [w for w in re.findall(r"[0-9a-z]+", text.lower()) if w not in _STOPWORDS]
    if not words:
        return None
    return " OR ".join(f'"{w}"' for w in dict.fromkeys(words))


class LibraryIndex:
    """The three library tables in one SQLite file.

    >>> index = LibraryIndex(tmp_path / "easel.db")   # doctest: +SKIP
    >>> index.count()                                 # doctest: +SKIP
    0
    """

    def __init__(self, path: str | os.PathLike, *, dim: int = EMBED_DIM):
        self.path = Path(path)
        self.dim = dim
        self._local = threading.local()
        self._create()

    # -- connection and schema -------------------------------------------------------------------

    @property
    def conn(self):
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = connect(self.path)
            self._local.conn = conn
        return conn

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    def _create(self) -> None:
        c = self.conn
        if c.in_transaction:
            c.commit()
        # Holding the write lock from the start: a second process creating the schema at the same
        # moment waits, then finds it made (and never copies the vectors twice below).
        c.execute("begin immediate")
        with c:
            c.execute(
                "create table if not exists library_images (id integer primary key, "
                "path text unique not null, hash text not null, size integer, mtime real, "
                "width integer, height integer, exif_date text, description text, keywords text, "
                "concepts text, ocr integer default 0, text text, indexed real)")
            c.execute("create index if not exists library_images_hash on library_images(hash)")
            c.execute(
                "create virtual table if not exists library_fts using fts5(description, keywords, "
                "text, path, tokenize='porter unicode61')")
            c.execute(
                f"create virtual table if not exists library_vec using vec0("
                f"embedding float[{self.dim}] distance_metric=cosine)")
            # Bits and floats in separate tables: the Hamming scan must read 48-byte rows, not pages
            # full of 1.5 kB float vectors (measured: 260 ms at 100k with both in one table).
            c.execute("create table if not exists library_bits (id integer primary key, bits blob)")
            c.execute("create table if not exists library_floats (id integer primary key, embedding blob)")
            if (c.execute("select count(*) from library_bits").fetchone()[0] == 0
                    and c.execute("select count(*) from library_vec").fetchone()[0] > 0):
                c.execute("insert into library_bits (id, bits) "
                          "select rowid, vec_quantize_binary(embedding) from library_vec")
                c.execute("insert into library_floats (id, embedding) select rowid, embedding from library_vec")

    # -- reading ---------------------------------------------------------------------------------

    def count(self) -> int:
        return self.conn.execute("select count(*) from library_images").fetchone()[0]

    def get(self, id_: int) -> Entry | None:
        row = self.conn.execute(f"select {_COLUMNS} from library_images where id = ?", [id_]).fetchone()
        return Entry.from_row(row) if row else None

    def get_by_path(self, path: str) -> Entry | None:
        row = self.conn.execute(f"select {_COLUMNS} from library_images where path = ?", [path]).fetchone()
        return Entry.from_row(row) if row else None

    def find_by_hash(self, digest: str) -> list[Entry]:
        rows = self.conn.execute(f"select {_COLUMNS} from library_images where hash = ?", [digest])
        return [Entry.from_row(r) for r in rows]

    def entries_under(self, root: str) -> list[Entry]:
        root = root.rstrip(os.sep) + os.sep
        rows = self.conn.execute(
            f"select {_COLUMNS} from library_images where substr(path, 1, ?) = ?", [len(root), root])
        return [Entry.from_row(r) for r in rows]

    def embedding(self, id_: int) -> np.ndarray | None:
        row = self.conn.execute("select embedding from library_vec where rowid = ?", [id_]).fetchone()
        return None if row is None else np.frombuffer(row[0], np.float32).copy()

    # -- writing (callers commit: ``with index.conn:`` or :meth:`commit`) ---------------------------

    def commit(self) -> None:
        self.conn.commit()

    def add(self, *, path: str, hash: str, size: int, mtime: float, width: int, height: int,
            exif_date: str | None, description: str, keywords: str, concepts: list[str],
            ocr: bool, text: str, embedding: np.ndarray) -> int:
        """Insert or replace the entry at ``path``; returns its id."""
        vec = self._vector(embedding)
        old = self.get_by_path(path)
        if old is not None:
            self.remove([old.id])
        cur = self.conn.execute(
            "insert into library_images (path, hash, size, mtime, width, height, exif_date, "
            "description, keywords, concepts, ocr, text, indexed) values (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [path, hash, size, mtime, width, height, exif_date, description, keywords,
             json.dumps(concepts), int(ocr), text, time.time()])
        id_ = cur.lastrowid
        self.conn.execute("insert into library_fts (rowid, description, keywords, text, path) "
                          "values (?,?,?,?,?)", [id_, description, keywords, text, path_words(path)])
        self.conn.execute("insert into library_vec (rowid, embedding) values (?, ?)", [id_, vec])
        self.conn.execute("insert into library_bits (id, bits) values (?, vec_quantize_binary(?))", [id_, vec])
        self.conn.execute("insert into library_floats (id, embedding) values (?, ?)", [id_, vec])
        return id_

    def add_many(self, rows: list[dict], embeddings: np.ndarray) -> None:
        """Bulk insert of new entries (no replace); for building large synthetic indexes."""
        c = self.conn
        start = (c.execute("select coalesce(max(id), 0) from library_images").fetchone()[0]) + 1
        ids = range(start, start + len(rows))
        now = time.time()
        c.executemany(
            "insert into library_images (id, path, hash, size, mtime, width, height, exif_date, "
            "description, keywords, concepts, ocr, text, indexed) values (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [[i, r["path"], r["hash"], r.get("size", 0), r.get("mtime", 0.0), r.get("width", 0),
              r.get("height", 0), r.get("exif_date"), r["description"], r.get("keywords", ""),
              json.dumps(r.get("concepts", [])), int(r.get("ocr", False)), r.get("text", ""), now]
             for i, r in zip(ids, rows)])
        c.executemany("insert into library_fts (rowid, description, keywords, text, path) values (?,?,?,?,?)",
                      [[i, r["description"], r.get("keywords", ""), r.get("text", ""), path_words(r["path"])]
                       for i, r in zip(ids, rows)])
        vecs = [[i, self._vector(e)] for i, e in zip(ids, embeddings)]
        c.executemany("insert into library_vec (rowid, embedding) values (?, ?)", vecs)
        c.executemany("insert into library_bits (id, bits) values (?, vec_quantize_binary(?))", vecs)
        c.executemany("insert into library_floats (id, embedding) values (?, ?)", vecs)

    def move(self, id_: int, path: str, *, size: int, mtime: float) -> None:
        """The file of entry ``id_`` is now at ``path`` (same content): no recomputation."""
        old = self.get_by_path(path)
        if old is not None and old.id != id_:
            self.remove([old.id])
        self.conn.execute("update library_images set path = ?, size = ?, mtime = ? where id = ?",
                          [path, size, mtime, id_])
        self.conn.execute("update library_fts set path = ? where rowid = ?", [path_words(path), id_])

    def touch(self, id_: int, *, size: int, mtime: float) -> None:
        self.conn.execute("update library_images set size = ?, mtime = ? where id = ?", [size, mtime, id_])

    def remove(self, ids: list[int]) -> None:
        for id_ in ids:
            self.conn.execute("delete from library_images where id = ?", [id_])
            self.conn.execute("delete from library_fts where rowid = ?", [id_])
            self.conn.execute("delete from library_vec where rowid = ?", [id_])
            self.conn.execute("delete from library_bits where id = ?", [id_])
            self.conn.execute("delete from library_floats where id = ?", [id_])

    def _vector(self, embedding: np.ndarray) -> bytes:
        vec = np.asarray(embedding, np.float32).reshape(-1)
        if vec.shape[0] != self.dim or not np.all(np.isfinite(vec)):
            raise ValueError(f"an embedding must be {self.dim} finite floats, got shape {vec.shape}")
        return vec.tobytes()

    # -- ranking ---------------------------------------------------------------------------------

    def text_search(self, query: str, k: int) -> list[tuple[int, float]]:
        """``(id, bm25)`` of the best ``k`` full-text matches (bm25: lower is better)."""
        match = fts_query(query)
        if match is None:
            return []
        # Column weights: what perception saw counts most; path words least (folder names help,
        # "IMG 0042" does not).
        rows = self.conn.execute(
            "select rowid, bm25(library_fts, 1.0, 1.0, 0.8, 0.5) as s from library_fts "
            "where library_fts match ? order by s limit ?", [match, k])
        return [(int(r[0]), float(r[1])) for r in rows]

    def vector_search(self, embedding: np.ndarray, k: int, *, exact: bool | None = None) -> list[tuple[int, float]]:
        """``(id, cosine distance)`` of the ``k`` nearest embeddings (sqlite-vec KNN).

        ``exact=None`` chooses: exact float KNN up to :data:`EXACT_LIMIT` entries, else binary
        quantised KNN of ``RESCORE * k`` candidates re-ranked by exact cosine distance.
        """
        vec = self._vector(embedding)
        if exact is None:
            exact = self.count() <= EXACT_LIMIT
        if exact:
            rows = self.conn.execute(
                "select rowid, distance from library_vec where embedding match ? and k = ? order by distance",
                [vec, k]).fetchall()
        else:
            coarse = [r[0] for r in self.conn.execute(
                "select id from library_bits order by vec_distance_hamming(vec_bit(bits), "
                "vec_quantize_binary(?)) limit ?", [vec, RESCORE * k])]
            if not coarse:
                return []
            rows = self.conn.execute(
                f"select id, vec_distance_cosine(embedding, ?) as d from library_floats "
                f"where id in ({','.join('?' * len(coarse))}) order by d limit ?",
                [vec, *coarse, k]).fetchall()
        return [(int(r[0]), float(r[1])) for r in rows]

    def search(self, query: str, embedding: np.ndarray | None, *, limit: int = 10,
               method: str = "rrf", candidates: int = 50, text_weight: float = 0.3) -> list[Hit]:
        """The best ``limit`` entries for a query, combining full-text and vector ranks.

        ``method``: ``"rrf"`` (reciprocal rank fusion, the default), ``"weighted"``
        (``text_weight`` * min-max normalised bm25 + the rest * cosine similarity), ``"text"`` or
        ``"vector"`` (one index alone; for measuring).
        """
        if limit < 1:
            raise ValueError(f"limit must be at least 1, got {limit}")
        if method not in ("rrf", "weighted", "text", "vector"):
            raise ValueError(f"unknown ranking method {method!r}")
        k = max(candidates, limit)
        text = self.text_search(query, k) if method != "vector" else []
        vector = self.vector_search(embedding, k) if embedding is not None and method != "text" else []
        text_rank = {id_: r for r, (id_, _) in enumerate(text)}
        vec_rank = {id_: r for r, (id_, _) in enumerate(vector)}
        similarity = {id_: 1.0 - d for id_, d in vector}
        scores: dict[int, float] = {}
        if method in ("rrf", "text", "vector"):
            for ranks in (text_rank, vec_rank):
                for id_, r in ranks.items():
                    scores[id_] = scores.get(id_, 0.0) + 1.0 / (RRF_K + r + 1)
        else:
            bm = {id_: -s for id_, s in text}  # higher is better
            lo, hi = (min(bm.values()), max(bm.values())) if bm else (0.0, 0.0)
            for id_ in set(bm) | set(similarity):
                t = (bm[id_] - lo) / (hi - lo) if id_ in bm and hi > lo else (1.0 if id_ in bm else 0.0)
                scores[id_] = text_weight * t + (1 - text_weight) * similarity.get(id_, 0.0)
        best = sorted(scores, key=lambda i: -scores[i])[:limit]
        hits = []
        for id_ in best:
            entry = self.get(id_)
            if entry is not None:
                hits.append(Hit(entry, scores[id_], text_rank.get(id_), vec_rank.get(id_),
                                similarity.get(id_)))
        return hits
