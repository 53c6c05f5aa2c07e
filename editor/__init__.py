"""Pixels and documents: image I/O, operations, versions, storage (no Qt, no language)."""

from editor.offline import stay_offline

stay_offline()  # before any model library can be imported through us (see editor.offline)
