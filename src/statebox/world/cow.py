"""Page-level copy-on-write sessions: what a session holds is the pages it wrote, not a whole image.

The C extension `_cowvfs` registers a SQLite VFS, "statebox-cow": a baseline image registered with it
(`register`) is opened by name, and every connection to that name gets a private file whose unchanged
pages are read from the one shared image and whose written pages live in the connection's own
overlay (freed when it closes). `pip install -e .` builds it (or `python setup.py build_ext
--inplace` after editing the C source).

The extension links no SQLite: at import it is attached to the SQLite the stdlib's sqlite3 runs on,
whichever that is (the system's libsqlite3 or a copy linked into Python), by SQLite loading it as an
extension, else through the symbols of the stdlib's `_sqlite3`; then a file is opened through the
VFS to prove it. Without the extension, where neither route works, or with STATEBOX_COW=0 in the
environment, sessions restore by copying the image; `status()` says which in one line, and
`describe()` (what `statebox doctor` prints) says why and which SQLite each side runs.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from statebox.world._cowvfs import Image

ENV = "STATEBOX_COW"  # "0": restore sessions by copying the image even where the extension works

Restore = Literal["copy-on-write", "copy"]
Route = Literal["load_extension", "symbols"]


@dataclass(frozen=True)
class Loaded:
    """The outcome of loading the extension: the module where it works, else why not."""

    module: ModuleType | None
    problem: str  # empty where the module works
    tried: tuple[str, ...] = ()  # routes that failed before one worked (or all of them)
    sqlite: dict[str, str] | None = None  # the extension's `attached()`: its route and its SQLite's version


@dataclass(frozen=True)
class RestorePath:
    """How sessions are restored in this process, why, and the SQLite on each side."""

    restore: Restore
    reason: str
    route: Route | None  # how the extension reached SQLite; None where it did not
    extension_sqlite: str | None  # the version and source id of the SQLite the VFS is registered with
    extension_source_id: str | None
    stdlib_sqlite: str  # the same of the SQLite the stdlib's sqlite3 runs on
    stdlib_source_id: str


def _by_load_extension(ext: ModuleType) -> str | None:
    """Route 1: SQLite loads the extension's file itself and hands it its own API table."""
    conn = sqlite3.connect(":memory:")
    try:
        if not hasattr(conn, "enable_load_extension"):
            return "load_extension: this Python's sqlite3 was built without extension loading"
        conn.enable_load_extension(True)
        conn.load_extension(str(ext.__file__))  # SQLite derives the entry point, sqlite3_cowvfs_init, from the name
        return None
    except sqlite3.Error as e:
        return f"load_extension: {e}"
    finally:
        conn.close()


def _by_symbols(ext: ModuleType) -> str | None:
    """Route 2: the API table filled from the symbols of the file that defines the stdlib's sqlite3."""
    module = sys.modules.get(sqlite3.connect.__module__)
    path = getattr(module, "__file__", None)  # None: _sqlite3 is built into the interpreter itself
    try:
        ext.attach_symbols(path)
        return None
    except OSError as e:
        return f"symbols: {e}"


def _probe(ext: ModuleType) -> str:
    """Open a file through the VFS with the stdlib's sqlite3; empty if it works, else why not."""
    probe = sqlite3.connect(":memory:")
    try:
        probe.execute("CREATE TABLE t (x)")
        image = ext.Image(probe.serialize())
        conn = sqlite3.connect(f"file:{image.name}?vfs={ext.VFS_NAME}", uri=True)
        conn.execute("SELECT count(*) FROM t").fetchone()
        conn.close()
    except (sqlite3.Error, AttributeError) as e:  # AttributeError: a sqlite3 without serialize()
        return f"python's sqlite3 cannot open a file through the statebox-cow VFS ({e})"
    finally:
        probe.close()
    return ""


_API = ("attach_symbols", "attached", "Image", "VFS_NAME", "stats")  # what this module calls on the extension


def _load() -> Loaded:
    """The extension, attached to the stdlib's SQLite and proved to work there, else why not."""
    try:
        from statebox.world import _cowvfs
    except ImportError as e:
        return Loaded(None, f"the extension statebox.world._cowvfs is not built ({e}); reinstall with a C compiler")
    if not all(hasattr(_cowvfs, name) for name in _API):  # built from an older _cowvfs.c
        built = getattr(_cowvfs, "__file__", _cowvfs.__name__)
        return Loaded(None, f"the extension {built} is out of date with its source; reinstall (pip install -e .)")
    tried: list[str] = []
    for attach in (_by_load_extension, _by_symbols):
        problem = attach(_cowvfs)
        if problem is None:
            break
        tried.append(problem)
    else:
        return Loaded(None, "it cannot reach the SQLite of python's sqlite3: " + "; ".join(tried), tuple(tried))
    problem = _probe(_cowvfs)
    return Loaded(None if problem else _cowvfs, problem, tuple(tried), _cowvfs.attached())


# Loaded once: whether the extension works is a fact of the installation, not a setting; the VFS it
# registers lives in SQLite's process-wide registry whatever this module holds.
_LOADED = _load()
_EXTENSION = _LOADED.module


def available() -> bool:
    """Whether the extension is built here and works with this Python's sqlite3."""
    return _EXTENSION is not None


def enabled() -> bool:
    """Whether new sessions open through the copy-on-write VFS (read at each call: tests switch it)."""
    return _EXTENSION is not None and os.environ.get(ENV, "1") != "0"


def status() -> str:
    """One line: how sessions are restored here, and why if not copy-on-write."""
    if not enabled():
        return f"sessions copy the whole image (page-level copy-on-write {_why_not()})"
    return "sessions share the baseline image and keep only the pages they write (statebox-cow VFS)"


def _why_not() -> str:
    return f"unavailable: {_LOADED.problem}" if _EXTENSION is None else f"switched off: {ENV}=0"


def describe() -> RestorePath:
    """How sessions are restored, why, and the versions of the SQLite each side runs."""
    conn = sqlite3.connect(":memory:")
    try:
        stdlib_source_id = str(conn.execute("SELECT sqlite_source_id()").fetchone()[0])
    finally:
        conn.close()
    attached = _LOADED.sqlite or {}
    route: Route | None = "symbols" if attached.get("route") == "symbols" else (
        "load_extension" if attached else None)
    return RestorePath(
        restore="copy-on-write" if enabled() else "copy",
        reason=f"page-level copy-on-write {_why_not()}" if not enabled() else _route_reason(route),
        route=route,
        extension_sqlite=attached.get("version"),
        extension_source_id=attached.get("source_id"),
        stdlib_sqlite=sqlite3.sqlite_version,
        stdlib_source_id=stdlib_source_id,
    )


def _route_reason(route: Route | None) -> str:
    how = "SQLite loaded it as an extension" if route == "load_extension" else "via the symbols of python's _sqlite3"
    skipped = f" ({'; '.join(_LOADED.tried)})" if _LOADED.tried else ""
    return f"the statebox-cow VFS reached python's SQLite {how}{skipped}, and a probe opened a file through it"


def register(image: bytes) -> Image | None:
    """The image registered with the VFS while the returned handle lives (None without the extension)."""
    return _EXTENSION.Image(image) if _EXTENSION is not None else None


def connect(handle: Image) -> sqlite3.Connection:
    """A private, writable connection over a registered image: reads share it, writes stay here.

    The rollback journal is kept in SQLite's memory, as for a deserialized database.
    """
    conn = sqlite3.connect(
        f"file:{handle.name}?vfs=statebox-cow", uri=True, isolation_level=None, check_same_thread=False
    )
    conn.execute("PRAGMA journal_mode = MEMORY")
    return conn


def stats() -> dict[str, int]:
    """The extension's counters (images, files_open, overlays_open, overlay_bytes); empty without it."""
    return _EXTENSION.stats() if _EXTENSION is not None else {}
