"""A document: a tree of immutable versions of one image, with a head that undo and redo move.

Each version but the root was made by one command from its parent. Undo moves the head to the
parent; redo moves it to the newest child, so editing after an undo starts a branch and redo then
follows the newest branch. Nothing is ever deleted: every version stays reachable for the history
panel.

Pixels live in the :class:`~editor.store.Store`; the document keeps only the most recently used
versions in memory (:attr:`Document.cache_bytes`), so 100 edits of a 12-megapixel photo take the
memory of a few versions, not of a hundred. Arrays handed out are read-only: operations make new
arrays and never change a version in place.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from editor.imageio import ImageMeta
from editor.store import Store, new_id

DEFAULT_CACHE_BYTES = 400 * 2**20


@dataclass(frozen=True)
class Version:
    id: str
    parent_id: str | None
    command: str | None
    pixels: str  # content hash
    width: int
    height: int
    channels: int
    dtype: str
    created: float
    seq: int

    @classmethod
    def from_row(cls, row: dict) -> Version:
        return cls(**{k: row[k] for k in cls.__dataclass_fields__})


class Document:
    """The versions of one image and the position of the head among them."""

    def __init__(self, store: Store, row: dict, versions: list[Version],
                 cache_bytes: int = DEFAULT_CACHE_BYTES):
        self.store = store
        self.id: str = row["id"]
        self.title: str = row["title"]
        self.source_path: str | None = row["source_path"]
        self.meta = ImageMeta(
            format=row.get("format") or "PNG", exif=row.get("exif"),
            icc_profile=row.get("icc_profile"), source=row["source_path"],
        )
        self.versions: dict[str, Version] = {v.id: v for v in versions}
        self._head: str = row["head"]
        self.cache_bytes = cache_bytes
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()

    # -- creation and reopening -------------------------------------------------------------------

    @classmethod
    def create(cls, store: Store, pixels: np.ndarray, *, title: str = "untitled",
               source_path: str | None = None, meta: ImageMeta | None = None,
               cache_bytes: int = DEFAULT_CACHE_BYTES) -> Document:
        now = time.time()
        doc_id = new_id()
        meta = meta or ImageMeta()
        with store.transaction():  # the document and its original together, never one alone
            root = cls._make_version(store, doc_id, None, None, pixels, seq=0)
            row = {
                "id": doc_id, "title": title, "source_path": source_path, "created": now,
                "updated": now, "head": root.id, "exif": meta.exif, "icc_profile": meta.icc_profile,
                "format": meta.format, "closed": 0,
            }
            store.insert("documents", row)
        doc = cls(store, row, [root], cache_bytes)
        doc._remember(root.pixels, pixels)
        return doc

    @classmethod
    def open(cls, store: Store, doc_id: str, cache_bytes: int = DEFAULT_CACHE_BYTES) -> Document:
        row = store.document(doc_id)
        if row is None:
            raise KeyError(f"no document {doc_id} in {store.path}")
        versions = [Version.from_row(r) for r in
                    store.rows("versions", "document_id = ?", [doc_id], order_by="seq")]
        return cls(store, row, versions, cache_bytes)

    @staticmethod
    def _make_version(store: Store, doc_id: str, parent: str | None, command: str | None,
                      pixels: np.ndarray, seq: int) -> Version:
        digest = store.put_pixels(pixels)
        v = Version(
            id=new_id(), parent_id=parent, command=command, pixels=digest,
            width=int(pixels.shape[1]), height=int(pixels.shape[0]),
            channels=1 if pixels.ndim == 2 else int(pixels.shape[2]), dtype=str(pixels.dtype),
            created=time.time(), seq=seq,
        )
        store.insert("versions", {"document_id": doc_id, **v.__dict__})
        return v

    # -- the tree --------------------------------------------------------------------------------

    @property
    def head(self) -> Version:
        return self.versions[self._head]

    @property
    def root(self) -> Version:
        return min(self.versions.values(), key=lambda v: v.seq)

    def children(self, version_id: str) -> list[Version]:
        """Children of a version, oldest first."""
        return sorted((v for v in self.versions.values() if v.parent_id == version_id),
                      key=lambda v: v.seq)

    def lineage(self, version_id: str | None = None) -> list[Version]:
        """The versions from the root to ``version_id`` (default: the head)."""
        out = []
        v: Version | None = self.versions[version_id or self._head]
        while v is not None:
            out.append(v)
            v = self.versions.get(v.parent_id) if v.parent_id else None
        return out[::-1]

    def parent(self, version_id: str | None = None) -> Version | None:
        v = self.versions[version_id or self._head]
        return self.versions.get(v.parent_id) if v.parent_id else None

    # -- pixels ----------------------------------------------------------------------------------

    def _remember(self, digest: str, pixels: np.ndarray) -> np.ndarray:
        if pixels.flags.writeable:  # keep a private copy the caller cannot change later
            pixels = pixels.copy()
            pixels.setflags(write=False)
        self._cache[digest] = pixels
        self._cache.move_to_end(digest)
        total = sum(a.nbytes for a in self._cache.values())
        while total > self.cache_bytes and len(self._cache) > 1:
            _, dropped = self._cache.popitem(last=False)
            total -= dropped.nbytes
        return pixels

    def pixels(self, version_id: str | None = None) -> np.ndarray:
        """The (read-only) pixels of a version, default the head."""
        v = self.versions[version_id or self._head]
        if v.pixels in self._cache:
            self._cache.move_to_end(v.pixels)
            return self._cache[v.pixels]
        return self._remember(v.pixels, self.store.get_pixels(v.pixels))

    # -- editing ---------------------------------------------------------------------------------

    def apply(self, command: str, pixels: np.ndarray, *, parent: str | None = None) -> Version:
        """Record ``pixels``, made by ``command`` from the head, as a new child; the head moves to it.

        ``parent``: made from that version instead of the head (a revised edit is made again from
        the version it was applied to, beside its first try: both stay in the tree).
        Inside :meth:`Store.transaction` the rows wait for the end of the block; if it fails, the
        version is forgotten here too, so memory never holds a version the database lacks.
        """
        if parent is not None and parent not in self.versions:
            raise KeyError(f"no version {parent} in this document")
        seq = max(v.seq for v in self.versions.values()) + 1
        v = self._make_version(self.store, self.id, parent or self._head, command, pixels, seq)
        self.versions[v.id] = v
        self.store.on_rollback(lambda: self.versions.pop(v.id, None))
        self._remember(v.pixels, pixels)
        self._move_head(v.id)
        return v

    def can_undo(self) -> bool:
        return self.head.parent_id is not None

    def can_redo(self) -> bool:
        return bool(self.children(self._head))

    def undo(self) -> Version | None:
        """Move the head to its parent; ``None`` at the original."""
        if not self.can_undo():
            return None
        self._move_head(self.head.parent_id)
        return self.head

    def redo(self) -> Version | None:
        """Move the head to its newest child; ``None`` if there is none."""
        kids = self.children(self._head)
        if not kids:
            return None
        self._move_head(kids[-1].id)
        return self.head

    def checkout(self, version_id: str) -> Version:
        """Make any version the head (a click in the history panel)."""
        if version_id not in self.versions:
            raise KeyError(f"no version {version_id} in this document")
        self._move_head(version_id)
        return self.head

    def _move_head(self, version_id: str) -> None:
        old = self._head
        self.store.on_rollback(lambda: setattr(self, "_head", old))
        self._head = version_id
        self.store.update("documents", self.id, {"head": version_id, "updated": time.time()})
