"""Annotation storage: sessions and their events, each event committed the moment it happens.

Annotator mode records three kinds of session in the profile database (the :class:`~editor.store.Store`
SQLite file, WAL mode):

- ``dialogue``: a user and an assistant chatting while the assistant edits images with tools; events
  ``seed``, ``user_text``, ``assistant_text``, ``command`` (the exact command line executed),
  ``image_load`` (the image shown after a search or an edit), ``end``;
- ``narrative``: a caption typed while a mouse trace is drawn over the image (Localized Narratives);
  events ``image``, ``text`` (a snapshot of the caption after every keystroke, with its time),
  ``point`` (one trace point), ``stroke`` (pen down: a new trace segment starts), ``end``;
- ``pair``: an instruction written for a before/after image pair (Image Editing Request); events
  ``pair``, ``instruction``, ``invalid``, ``end``.

Imported data is stored the same way (an ``imported`` event may carry the original record verbatim).

Durability: :meth:`Recorder.record` runs one transaction per event and commits before it returns, so
a process killed at any moment loses at most the event being written; the database stays consistent
(SQLite's journal) and a session resumes from its last committed event. Nothing here imports Qt or
the language layer: commands are stored as the text the GUI executed.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from editor.store import Store, new_id

KINDS = ("dialogue", "narrative", "pair")

# CAISE's target command types: one training instance per executed command of these types. Crop,
# undo and our extensions are recorded in histories but are never targets (as in CAISE's release).
CAISE_TARGETS = ("search", "adjust_attr", "rotate", "adjust_color", "image_cutout")


def command_type(line: str) -> str:
    """CAISE's command type of a command line (``adjust_attr brightness 10`` -> ``brightness``).

    A text-only twin of :func:`agent.grammar.commands.command_type` (``editor`` never imports ``agent``).
    """
    words = line.split()
    if not words:
        return ""
    if words[0] == "adjust_attr" and len(words) > 1:
        return words[1]
    return words[0]


@dataclass
class Event:
    """One recorded event of a session."""

    seq: int
    kind: str
    t: float
    role: str | None = None
    annotator: str | None = None
    text: str | None = None
    data: dict = field(default_factory=dict)

    @classmethod
    def from_row(cls, row: dict) -> Event:
        return cls(seq=row["seq"], kind=row["kind"], t=row["t"], role=row["role"],
                   annotator=row["annotator"], text=row["text"],
                   data=json.loads(row["data"]) if row["data"] else {})


@dataclass
class Session:
    """An annotation session (one dialogue, one narrative or one image pair)."""

    id: str
    kind: str
    item: str  # what was annotated; two sessions with the same kind and item can be compared
    name: str  # the dialogue/pair key used in exported ids (e.g. "md_1052")
    status: str  # "open" or "done"
    created: float
    updated: float
    meta: dict = field(default_factory=dict)

    @classmethod
    def from_row(cls, row: dict) -> Session:
        return cls(id=row["id"], kind=row["kind"], item=row["item"], name=row["name"],
                   status=row["status"], created=row["created"], updated=row["updated"],
                   meta=json.loads(row["meta"]) if row["meta"] else {})


class AnnotationStore:
    """The annotation tables in a profile database.

    >>> ann = AnnotationStore(Store(tmp_path / "easel.db"))           # doctest: +SKIP
    >>> rec = ann.open_session("narrative", item="coco_1", name="n1")  # doctest: +SKIP
    >>> rec.record("text", text="a dog", data={"t": 0.4})             # doctest: +SKIP
    """

    def __init__(self, store: Store, *, synchronous: str | None = None):
        self.store = store
        self.db = store.db
        if synchronous is not None:
            # NORMAL (in WAL mode): a commit is written to the log but not fsynced, so a killed
            # process still loses nothing committed (the OS has the data); only a power cut can
            # lose the last moments. Ten times faster per event; the trace recorder uses it.
            if synchronous.upper() not in ("FULL", "NORMAL"):
                raise ValueError(f"synchronous must be FULL or NORMAL, got {synchronous!r}")
            self.db.execute(f"pragma synchronous={synchronous.upper()}")
        self._create_tables()

    def _create_tables(self) -> None:
        self.db["ann_sessions"].create(
            {"id": str, "kind": str, "item": str, "name": str, "status": str, "created": float,
             "updated": float, "meta": str},
            pk="id", if_not_exists=True,
        )
        self.db["ann_sessions"].create_index(["kind", "item"], if_not_exists=True)
        self.db["ann_events"].create(
            {"session_id": str, "seq": int, "t": float, "role": str, "annotator": str, "kind": str,
             "text": str, "data": str},
            pk=("session_id", "seq"), if_not_exists=True,
        )

    # -- sessions --------------------------------------------------------------------------------

    def open_session(self, kind: str, *, item: str, name: str | None = None,
                     meta: dict | None = None, created: float | None = None) -> Recorder:
        """Start a new session and return its recorder (the session row is committed at once)."""
        if kind not in KINDS:
            raise ValueError(f"session kind must be one of {', '.join(KINDS)}, got {kind!r}")
        sid = new_id()
        now = time.time() if created is None else created
        with self.db.conn:
            self.db.conn.execute(
                "insert into ann_sessions (id, kind, item, name, status, created, updated, meta) "
                "values (?, ?, ?, ?, 'open', ?, ?, ?)",
                [sid, kind, item, name or f"easel_{sid[:8]}", now, now, json.dumps(meta or {})],
            )
        return Recorder(self, sid)

    def session(self, session_id: str) -> Session:
        rows = list(self.db["ann_sessions"].rows_where("id = ?", [session_id]))
        if not rows:
            raise KeyError(f"no annotation session {session_id} in {self.store.path}")
        return Session.from_row(rows[0])

    def sessions(self, kind: str | None = None, status: str | None = None,
                 item: str | None = None) -> list[Session]:
        """Sessions in the order they were created (insertion order)."""
        where, args = [], []
        for col, val in (("kind", kind), ("status", status), ("item", item)):
            if val is not None:
                where.append(f"{col} = ?")
                args.append(val)
        rows = self.db["ann_sessions"].rows_where(" and ".join(where) or None, args, order_by="rowid")
        return [Session.from_row(r) for r in rows]

    def resume(self, session_id: str) -> Recorder:
        """The recorder of an existing session; new events continue after the last committed one."""
        self.session(session_id)
        return Recorder(self, session_id)

    def latest_open(self, kind: str, item: str | None = None) -> Session | None:
        """The most recently updated open session of a kind (what to resume after a crash)."""
        where, args = "kind = ? and status = 'open'", [kind]
        if item is not None:
            where += " and item = ?"
            args.append(item)
        rows = list(self.db["ann_sessions"].rows_where(where, args, order_by="updated desc", limit=1))
        return Session.from_row(rows[0]) if rows else None

    def events(self, session_id: str, kind: str | None = None) -> list[Event]:
        where, args = "session_id = ?", [session_id]
        if kind is not None:
            where += " and kind = ?"
            args.append(kind)
        return [Event.from_row(r) for r in
                self.db["ann_events"].rows_where(where, args, order_by="seq")]

    def count_events(self, session_id: str | None = None) -> int:
        if session_id is None:
            return self.db.execute("select count(*) from ann_events").fetchone()[0]
        return self.db.execute("select count(*) from ann_events where session_id = ?",
                               [session_id]).fetchone()[0]

    def sessions_by(self, annotator: str, kind: str | None = None) -> list[Session]:
        """Sessions in which ``annotator`` recorded at least one event, oldest first."""
        ids = {r[0] for r in self.db.execute(
            "select distinct session_id from ann_events where annotator = ?", [annotator]).fetchall()}
        return [s for s in self.sessions(kind) if s.id in ids]

    def write_imported(self, sessions: list[tuple[str, str, str, dict, list[tuple]]]) -> list[str]:
        """Store imported sessions ``(kind, item, name, meta, events)`` in ONE transaction.

        Returns, per session, ``"new"`` (written), ``"completed"`` (its row was there without all its
        events, left so by an import killed before this one committed each dialogue whole; the
        events are written now) or ``"there"`` (already complete: skipped). Events are
        ``(kind, text, role, annotator, data, t)`` tuples as for :meth:`Recorder.record_many`; a
        session whose last event is ``end`` is marked done. Killed at any moment, the database
        holds each of these sessions either whole or not at all.
        """
        conn = self.db.conn
        out: list[str] = []
        if conn.in_transaction:
            conn.commit()
        conn.execute("begin immediate")
        try:
            for kind, item, name, meta, events in sessions:
                if kind not in KINDS:
                    raise ValueError(f"session kind must be one of {', '.join(KINDS)}, got {kind!r}")
                row = conn.execute("select id from ann_sessions where kind = ? and name = ? "
                                   "order by rowid limit 1", [kind, name]).fetchone()
                now = time.time()
                if row is not None:
                    sid = row[0]
                    have = conn.execute("select count(*) from ann_events where session_id = ?",
                                        [sid]).fetchone()[0]
                    if have >= len(events):
                        out.append("there")
                        continue
                    conn.execute("delete from ann_events where session_id = ?", [sid])
                    out.append("completed")
                else:
                    sid = new_id()
                    conn.execute(
                        "insert into ann_sessions (id, kind, item, name, status, created, updated, meta) "
                        "values (?, ?, ?, ?, 'open', ?, ?, ?)",
                        [sid, kind, item, name, now, now, json.dumps(meta or {})])
                    out.append("new")
                last_t = now
                for seq, (ekind, text, role, annotator, data, t) in enumerate(events):
                    last_t = now if t is None else float(t)
                    conn.execute(
                        "insert into ann_events (session_id, seq, t, role, annotator, kind, text, data) "
                        "values (?, ?, ?, ?, ?, ?, ?, ?)",
                        [sid, seq, last_t, role, annotator, ekind, text, json.dumps(data) if data else None])
                status = "done" if events and events[-1][0] == "end" else "open"
                conn.execute("update ann_sessions set updated = ?, status = ? where id = ?",
                             [last_t, status, sid])
            conn.commit()
        except BaseException:
            conn.rollback()
            raise
        return out

    def find(self, kind: str, name: str) -> Session | None:
        rows = list(self.db["ann_sessions"].rows_where("kind = ? and name = ?", [kind, name], limit=1))
        return Session.from_row(rows[0]) if rows else None


class Recorder:
    """Appends events to one session; every :meth:`record` is its own committed transaction."""

    def __init__(self, annotations: AnnotationStore, session_id: str):
        self.annotations = annotations
        self.session_id = session_id
        self._conn = annotations.db.conn

    @property
    def session(self) -> Session:
        return self.annotations.session(self.session_id)

    def events(self, kind: str | None = None) -> list[Event]:
        return self.annotations.events(self.session_id, kind)

    def record(self, kind: str, *, text: str | None = None, role: str | None = None,
               annotator: str | None = None, data: dict | None = None, t: float | None = None) -> Event:
        """Commit one event and return it; when this returns the event survives a crash."""
        return self.record_many([(kind, text, role, annotator, data, t)])[-1]

    def record_many(self, events: Iterable[tuple]) -> list[Event]:
        """Commit several events in one transaction (imports); tuples are
        ``(kind, text, role, annotator, data, t)``."""
        out: list[Event] = []
        now = time.time()
        conn = self._conn
        # BEGIN IMMEDIATE takes the write lock before reading max(seq), so two writers never
        # collide on a sequence number; the "with" commits, or rolls back on an exception.
        if conn.in_transaction:  # a statement of someone else's left one open: keep it theirs
            conn.commit()
        conn.execute("begin immediate")
        try:
            seq = conn.execute("select coalesce(max(seq), -1) + 1 from ann_events where session_id = ?",
                               [self.session_id]).fetchone()[0]
            last_t = now
            for kind, text, role, annotator, data, t in events:
                ev = Event(seq=seq, kind=kind, t=now if t is None else float(t), role=role,
                           annotator=annotator, text=text, data=data or {})
                conn.execute(
                    "insert into ann_events (session_id, seq, t, role, annotator, kind, text, data) "
                    "values (?, ?, ?, ?, ?, ?, ?, ?)",
                    [self.session_id, ev.seq, ev.t, role, annotator, kind, text,
                     json.dumps(data) if data else None],
                )
                out.append(ev)
                seq += 1
                last_t = ev.t
            status = "done" if out and out[-1].kind == "end" else None
            if status:
                conn.execute("update ann_sessions set updated = ?, status = ? where id = ?",
                             [last_t, status, self.session_id])
            else:
                conn.execute("update ann_sessions set updated = ? where id = ?", [last_t, self.session_id])
            conn.commit()
        except BaseException:
            conn.rollback()
            raise
        return out

    def update_meta(self, **values) -> None:
        meta = self.session.meta
        meta.update(values)
        with self._conn:
            self._conn.execute("update ann_sessions set meta = ? where id = ?",
                               [json.dumps(meta), self.session_id])

    def reopen(self) -> None:
        """Mark a finished session open again (an annotator continues it)."""
        with self._conn:
            self._conn.execute("update ann_sessions set status = 'open' where id = ?", [self.session_id])


# -- trace narratives: words aligned to the trace by typing time ------------------------------------

_WORD = re.compile(r"\S+")


def word_times(caption: str, snapshots: list[tuple[float, str]], end_time: float | None = None
               ) -> list[dict]:
    """Time each word of ``caption`` by when it was typed.

    ``snapshots`` are ``(t, text)`` pairs: the caption after every keystroke, in time order. A word
    starts when its first character was typed *for good*: the first snapshot from which on every
    later snapshot agrees with the final caption up to and including that character (so text typed
    and then deleted does not count). A word ends when the next word starts; the last word ends at
    ``end_time`` (default: the last snapshot's time). Returns Localized Narratives' ``timed_caption``:
    ``[{"utterance", "start_time", "end_time"}]``.

    >>> word_times("a dog", [(0.0, "a"), (0.5, "a "), (1.0, "a d"), (1.2, "a do"), (1.3, "a dog")])
    [{'utterance': 'a', 'start_time': 0.0, 'end_time': 1.0}, {'utterance': 'dog', 'start_time': 1.0, 'end_time': 1.3}]
    """
    words = [(m.start(), m.group()) for m in _WORD.finditer(caption)]
    if not words:
        return []
    if not snapshots:
        raise ValueError("word_times needs at least one keystroke snapshot")
    # stable[k]: how many leading characters of the caption are never changed again from snapshot k on
    stable = [0] * len(snapshots)
    running = len(caption)
    for k in range(len(snapshots) - 1, -1, -1):
        text = snapshots[k][1]
        n = 0
        limit = min(len(text), len(caption))
        while n < limit and text[n] == caption[n]:
            n += 1
        running = min(running, n)
        stable[k] = running
    starts = []
    k = 0
    for offset, _ in words:
        while k < len(snapshots) - 1 and stable[k] <= offset:
            k += 1
        starts.append(snapshots[k][0])
    end = snapshots[-1][0] if end_time is None else end_time
    out = []
    for i, (_, word) in enumerate(words):
        t1 = starts[i + 1] if i + 1 < len(words) else max(end, starts[i])
        out.append({"utterance": word, "start_time": round(starts[i], 3), "end_time": round(t1, 3)})
    return out


def segments_for_words(timed_caption: list[dict], traces: list[list[dict]]) -> list[list[dict]]:
    """The trace points of each word: those with ``start_time <= t < end_time`` (the last word's
    interval is closed), across all trace segments, in time order."""
    points = sorted((p for stroke in traces for p in stroke), key=lambda p: p["t"])
    out = []
    for i, w in enumerate(timed_caption):
        last = i == len(timed_caption) - 1
        out.append([p for p in points if w["start_time"] <= p["t"] < w["end_time"]
                    or (last and p["t"] == w["end_time"])])
    return out


def version_pairs(store: Store) -> list[dict]:
    """Before/after pairs from the edit history: every version made by a command, with its parent.

    ``img0``/``img1`` are the versions' pixel files relative to ``store.blobs``; ``uid`` is the
    version id, so a pair is the same item for every annotator.
    """
    rows = store.db.execute(
        "select v.id, v.command, p.pixels, v.pixels from versions v join versions p on v.parent_id = p.id "
        "where v.command is not null order by v.created").fetchall()
    return [{"img0": f"{a[:2]}/{a}.png", "img1": f"{b[:2]}/{b}.png", "uid": vid, "command": command}
            for vid, command, a, b in rows if a != b]
