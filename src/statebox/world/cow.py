"""Page-level copy-on-write sessions: what a session holds is the pages it wrote, not a whole image.

The C extension `_cowvfs` registers a SQLite VFS, "statebox-cow": a baseline image registered with it
(`register`) is opened by name, and every connection to that name gets a private file whose unchanged
pages are read from the one shared image and whose written pages live in the connection's own
overlay (freed when it closes). `pip install -e .` builds it (or `python setup.py build_ext
--inplace` after editing the C source). Without the extension (no compiler at install, or a Python whose
sqlite3 is not the shared libsqlite3 the extension registers with), or with STATEBOX_COW=0 in the
environment, sessions restore by copying the image as before; `status()` says which, in one line.
"""

from __future__ import annotations

import os
import sqlite3
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from statebox.world._cowvfs import Image

ENV = "STATEBOX_COW"  # "0": restore sessions by copying the image even where the extension works


def _load() -> tuple[ModuleType | None, str]:
    """The extension, if it imports and the stdlib's sqlite3 can open a file through its VFS."""
    try:
        from statebox.world import _cowvfs
    except ImportError as e:
        return None, f"the extension statebox.world._cowvfs is not built ({e}); reinstall with a C compiler"
    probe = sqlite3.connect(":memory:")
    try:
        probe.execute("CREATE TABLE t (x)")
        image = _cowvfs.Image(probe.serialize())
        conn = sqlite3.connect(f"file:{image.name}?vfs={_cowvfs.VFS_NAME}", uri=True)
        conn.execute("SELECT count(*) FROM t").fetchone()
        conn.close()
    except sqlite3.Error as e:
        return None, f"python's sqlite3 cannot open the statebox-cow VFS ({e}): not the libsqlite3 it was built for"
    finally:
        probe.close()
    return _cowvfs, ""


# Loaded once: whether the extension works is a fact of the installation, not a setting.
_EXTENSION, _UNAVAILABLE = _load()


def available() -> bool:
    """Whether the extension is built here and works with this Python's sqlite3."""
    return _EXTENSION is not None


def enabled() -> bool:
    """Whether new sessions open through the copy-on-write VFS (read at each call: tests switch it)."""
    return _EXTENSION is not None and os.environ.get(ENV, "1") != "0"


def status() -> str:
    """One line: how sessions are restored here, and why if not copy-on-write."""
    if _EXTENSION is None:
        return f"sessions copy the whole image (page-level copy-on-write unavailable: {_UNAVAILABLE})"
    if not enabled():
        return f"sessions copy the whole image (page-level copy-on-write switched off: {ENV}=0)"
    return "sessions share the baseline image and keep only the pages they write (statebox-cow VFS)"


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
