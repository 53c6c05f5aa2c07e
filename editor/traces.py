"""Mouse traces drawn over an image, stored in the profile database (no Qt).

A trace is kept in Localized Narratives form: a list of strokes, each a list of
``{"x": float, "y": float, "t": float}`` points, x and y normalised to the image (0..1, may stray
slightly outside where the pointer left the picture), t in seconds from the start of the trace.
Each trace is a row of the ``traces`` table, tied to the document and the version it was drawn on,
committed as soon as it is drawn.
"""

from __future__ import annotations

import json
import time

from editor.store import Store, new_id

Trace = list[list[dict]]


def ensure_table(store: Store) -> None:
    """Create the ``traces`` table if this database does not have it yet."""
    store.db["traces"].create(
        {"id": str, "document_id": str, "version_id": str, "created": float, "points": str,
         "caption": str},
        pk="id", if_not_exists=True,
    )
    store.db["traces"].create_index(["document_id", "created"], if_not_exists=True)


def validate_trace(trace: Trace) -> Trace:
    """Check the Localized Narratives shape and return the trace with float coordinates.

    Raises
    ------
    ValueError
        If the trace is not a non-empty list of non-empty strokes of x, y, t points.

    Examples
    --------
    >>> validate_trace([[{"x": 0.5, "y": 0.25, "t": 0}]])
    [[{'x': 0.5, 'y': 0.25, 't': 0.0}]]
    """
    if not isinstance(trace, list) or not trace:
        raise ValueError("a trace is a non-empty list of strokes")
    out = []
    for stroke in trace:
        if not isinstance(stroke, list) or not stroke:
            raise ValueError("each stroke of a trace is a non-empty list of points")
        points = []
        for p in stroke:
            try:
                points.append({"x": float(p["x"]), "y": float(p["y"]), "t": float(p["t"])})
            except (KeyError, TypeError, ValueError):
                raise ValueError(f"a trace point needs numeric x, y and t, got {p!r}") from None
        out.append(points)
    return out


def add_trace(store: Store, document_id: str, version_id: str | None, trace: Trace, *,
              caption: str | None = None) -> str:
    """Store a trace drawn on a version of a document and return its id."""
    trace = validate_trace(trace)
    ensure_table(store)
    trace_id = new_id()
    store.insert("traces", {
        "id": trace_id, "document_id": document_id, "version_id": version_id,
        "created": time.time(), "points": json.dumps(trace), "caption": caption,
    })
    return trace_id


def update_trace(store: Store, trace_id: str, trace: Trace) -> None:
    """Replace a stored trace's points (another stroke was added to it)."""
    store.update("traces", trace_id, {"points": json.dumps(validate_trace(trace))})


def traces(store: Store, document_id: str) -> list[dict]:
    """The traces of a document, oldest first, with ``points`` decoded."""
    ensure_table(store)
    rows = store.rows("traces", "document_id = ?", [document_id], order_by="created")
    for r in rows:
        r["points"] = json.loads(r["points"])
    return rows
