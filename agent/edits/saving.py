"""What a saved file carries besides the pixels of the version saved: the document's metadata, less
what the conversation asked to leave out (``remove_location`` on the way to the version: no GPS)."""

from __future__ import annotations

from editor.document import Document
from editor.imageio import ImageMeta, strip_location


def location_removed(doc: Document, version_id: str | None = None) -> bool:
    """Whether ``remove_location`` was run on the way from the original to the version (the head)."""
    return any((v.command or "").strip() == "remove_location" for v in doc.lineage(version_id or doc.head.id))


def saved_meta(doc: Document, version_id: str | None = None) -> ImageMeta | None:
    """The metadata to write with the version (default: the head) of ``doc``."""
    return strip_location(doc.meta) if location_removed(doc, version_id) else doc.meta
