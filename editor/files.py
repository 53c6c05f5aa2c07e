"""Writing files the person named without ever losing one: refuse, then write atomically.

Every writer in Easel that puts a file where the person asked (image outputs of ``apply``/``edit``,
``--draw`` pictures, annotator exports and their images and concept files) goes through
:func:`check_output` and :func:`write_atomic`:

- an existing file is replaced only with ``overwrite=True`` (``--overwrite`` on the command line);
- a file inside the profile folder (``$EASEL_HOME``: the database, its WAL, the version pixels,
  settings) or any SQLite database is never written over, with or without ``overwrite``: an export
  aimed at ``easel.db`` by a slip of the shell would otherwise destroy every recorded session;
- the bytes go to a hidden temporary file in the same folder (``.easel-<pid>-<random>.part``),
  are flushed and fsynced, and only then renamed over the target, so a kill or a full disk leaves
  either the old file or the new one, never half of one.

A process killed between the temporary file and the rename leaves the temporary file behind. Its
name carries the writer's process id, so :func:`clean_partials` (called before every write into a
folder, and on the profile at start) removes those whose writer is gone, and never another running
process's.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import time
from collections.abc import Iterable
from pathlib import Path

PARTIAL_PREFIX = ".easel-"
PARTIAL_SUFFIX = ".part"
_PARTIAL = re.compile(r"^\.easel-(\d+)-[0-9a-f]+.*\.part$")
# what writers before pid-named partials left (tempfile.mkstemp(prefix=".easel-")): no owner to
# ask, so only those older than LEGACY_GRACE_S go
_LEGACY = re.compile(r"^\.easel-[a-z0-9_]{8}\.[A-Za-z]+$")
LEGACY_GRACE_S = 3600.0
SQLITE_MAGIC = b"SQLite format 3\x00"


class OutputError(ValueError):
    """An output path that must not be written (exists, inside the profile, a database...)."""


def default_profile_dir() -> Path:
    """``$EASEL_HOME`` or ``$XDG_DATA_HOME/easel`` (``~/.local/share/easel``)."""
    if os.environ.get("EASEL_HOME"):
        return Path(os.environ["EASEL_HOME"])
    base = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share"))
    return base / "easel"


def _resolved(path: str | os.PathLike) -> Path:
    return Path(os.path.abspath(os.path.realpath(path)))


def protected_folders(extra_db: str | os.PathLike | None = None) -> list[Path]:
    """Folders no output may be written into: the profile folder, and the folder of ``extra_db``'s
    pixel files (``versions/`` beside a ``--db`` database)."""
    out = [_resolved(default_profile_dir())]
    if extra_db is not None:
        out.append(_resolved(Path(extra_db).parent / "versions"))
    return out


def protected_files(extra_db: str | os.PathLike | None = None) -> list[Path]:
    """A ``--db`` database's own files (it may live outside the profile)."""
    if extra_db is None:
        return []
    db = _resolved(extra_db)
    return [db] + [db.with_name(db.name + s) for s in ("-wal", "-shm", "-journal")]


def is_sqlite(path: str | os.PathLike) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def check_output(path: str | os.PathLike, *, overwrite: bool = False,
                 db: str | os.PathLike | None = None,
                 also_protect: Iterable[str | os.PathLike] = ()) -> Path:
    """Raise :class:`OutputError` if ``path`` must not be written; returns it as a Path.

    ``db`` is a database in use outside the profile (``--db``): its files and pixel folder are
    protected too; ``also_protect`` adds files (an input that must not be replaced).
    """
    path = Path(path)
    check_not_protected(path, db=db)
    if path.is_dir():
        raise OutputError(f"{path} is a folder; give a file name")
    if not path.parent.is_dir():
        raise OutputError(f"{path.parent}: no such folder")
    if path.exists() or path.is_symlink():
        if is_sqlite(path):
            raise OutputError(f"{path} is an SQLite database (perhaps a profile); Easel never "
                              "writes over one, even with --overwrite")
        if not overwrite:
            raise OutputError(f"{path} exists; choose another name or pass --overwrite")
        for p in also_protect:
            if _resolved(path) == _resolved(p):
                raise OutputError(f"{path} is an input of this run; write to another file")
    return path


def check_not_protected(path: str | os.PathLike, *, db: str | os.PathLike | None = None) -> None:
    """Raise :class:`OutputError` if ``path`` (a file or a folder to be made) lies in the profile
    folder or is a file of the database in use."""
    target = _resolved(path)
    for folder in protected_folders(db):
        if target == folder or folder in target.parents:
            raise OutputError(f"{path} is inside Easel's profile folder {folder}; Easel never writes "
                              "its outputs there (it would risk the database and your history); "
                              "choose another folder")
    if target in protected_files(db):
        raise OutputError(f"{path} is the database in use; choose another file name")


def _umask() -> int:
    """The process umask (reading it means setting it, so it is put straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def partial_name(path: Path) -> Path:
    """A hidden temporary name beside ``path``, carrying this process's id."""
    return path.with_name(f"{PARTIAL_PREFIX}{os.getpid()}-{secrets.token_hex(6)}-{path.name}{PARTIAL_SUFFIX}")


def write_atomic(path: str | os.PathLike, data: bytes | str, *, overwrite: bool = False,
                 db: str | os.PathLike | None = None, checked: bool = False) -> Path:
    """Write ``data`` to ``path`` atomically (temporary file in the same folder, fsync, rename).

    ``checked=True`` skips :func:`check_output` (the caller has just run it with its own options);
    the overwrite rule is still applied.
    """
    path = Path(path)
    if not checked:
        check_output(path, overwrite=overwrite, db=db)
    elif path.exists() and not overwrite:
        raise OutputError(f"{path} exists; choose another name or pass --overwrite")
    if isinstance(data, str):
        data = data.encode("utf-8")
    clean_partials(path.parent)
    tmp = partial_name(path)
    try:
        # The file gets what a plain open() would give it, or the mode of the file it replaces.
        mode = path.stat().st_mode & 0o7777 if path.exists() else 0o666 & ~_umask()
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fchmod(f.fileno(), mode)
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # the rename itself survives a power cut once the folder is synced
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    return path


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a crash marker's or a temporary folder's owner). A killed
    process its parent has not reaped yet is a zombie: gone all the same."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def clean_partials(folder: str | os.PathLike, *, recursive: bool = False) -> int:
    """Delete the temporary files of writes whose process is gone; returns how many.

    Only names made by :func:`partial_name` are touched, and never one of a running process.
    """
    folder = Path(folder)
    removed = 0
    try:
        candidates = folder.rglob(f"{PARTIAL_PREFIX}*") if recursive else folder.glob(f"{PARTIAL_PREFIX}*")
        for f in candidates:
            m = _PARTIAL.match(f.name)
            if m is None:
                with contextlib.suppress(OSError):
                    if _LEGACY.match(f.name) and f.stat().st_mtime < time.time() - LEGACY_GRACE_S:
                        f.unlink()
                        removed += 1
                continue
            if int(m.group(1)) == os.getpid() or process_alive(int(m.group(1))):
                continue
            with contextlib.suppress(OSError):
                f.unlink()
                removed += 1
    except OSError:
        pass
    return removed
