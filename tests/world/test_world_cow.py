"""Copy-on-write sessions: each reads the one baseline image in place and holds only the pages it writes.

The `restore` fixture (conftest.py) runs every test here on both paths; the tests of the overlay's
memory run on the copy-on-write path only.
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import shutil
import sqlite3
import sys
import threading
from pathlib import Path

import pytest

from minidomain import WORLD, mini_suite, seed
from statebox.world import Session, Snapshot, cow

ROWS = 20_000


def _emails(conn: sqlite3.Connection) -> None:
    seed(conn)
    conn.executemany(
        "INSERT INTO emails_sent VALUES (?, 'old@example.com', 'ticket_created', NULL, '2024-01-01T00:00:00')",
        ((f"OLD-{i}",) for i in range(ROWS)),
    )


@pytest.fixture(scope="module")
def large() -> Snapshot:
    """The mini world with 20,000 old emails: an image of a few hundred pages."""
    return Snapshot.build(dataclasses.replace(WORLD, seed=_emails))


def email(i: int) -> dict[str, str]:
    return {"id": f"E-{i}", "to_address": f"u{i}@example.com", "template": "ticket_created", "sent_at": "2024-05-01"}


def main_file(session: Session) -> str:
    return next(r[2] for r in session.db.execute("PRAGMA database_list") if r[1] == "main")


def test_a_thousand_sessions_of_one_image_each_see_only_the_row_they_wrote(restore):
    suite = mini_suite()
    task = suite.task("solve-printer-ticket")
    sessions = [suite.open_session(task) for _ in range(1000)]
    try:
        for i, s in enumerate(sessions):
            s.insert("emails_sent", email(i))
        wrong = []
        for i, s in enumerate(sessions):
            seen = [r["id"] for r in s.all("SELECT id FROM emails_sent")]
            changes = [(c.kind, c.key) for c in s.effects().changes]
            if seen != [f"E-{i}"] or changes != [("insert", f"E-{i}")]:
                wrong.append((i, seen, changes))
        assert not wrong, f"{len(wrong)} sessions saw other rows, first: {wrong[:3]}"
        fresh = suite.open_session(task)
        assert fresh.all("SELECT id FROM emails_sent") == []
        fresh.close()
    finally:
        for s in sessions:
            s.close()


def test_the_baseline_image_never_changes(restore, large):
    before = hashlib.sha256(large.image).hexdigest()
    s = Session(large)
    deleted = s.one("SELECT count(*) AS n FROM emails_sent WHERE id < 'OLD-5'")["n"]
    s.execute("DELETE FROM emails_sent WHERE id < 'OLD-5'")
    s.execute("UPDATE customers SET tier = 'gold'")
    s.execute("VACUUM")
    assert s.one("SELECT count(*) AS n FROM emails_sent") == {"n": ROWS - deleted}
    assert hashlib.sha256(large.image).hexdigest() == before
    assert large.row("customers", "CU-2")["tier"] == "basic"
    fresh = Session(large)
    assert fresh.one("SELECT count(*) AS n FROM emails_sent") == {"n": ROWS}
    assert fresh.effects().is_empty()
    s.close()
    fresh.close()


def test_sessions_written_from_many_threads_at_once_stay_apart(restore, large):
    sessions = [Session(large) for _ in range(8)]
    errors: list[BaseException] = []

    def work(k: int, s: Session) -> None:
        try:
            for i in range(200):
                with s.transaction():
                    s.insert("emails_sent", email(k * 1000 + i))
                    s.update("emails_sent", f"OLD-{k * 100 + i}", template=f"by-{k}")
        except BaseException as e:  # reported below: a thread's exception would be lost
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k, s)) for k, s in enumerate(sessions)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for k, s in enumerate(sessions):
        assert s.one("SELECT count(*) AS n FROM emails_sent") == {"n": ROWS + 200}
        templates = {r["template"] for r in s.all("SELECT template FROM emails_sent WHERE template LIKE 'by-%'")}
        assert templates == {f"by-{k}"}, (k, templates)
        assert len(s.effects().changes) == 400
        assert s.one("PRAGMA integrity_check") == {"integrity_check": "ok"}
        s.close()


def test_the_fallback_restores_a_private_copy_of_the_image(restore, large):
    s = Session(large)
    if restore == "copy":
        assert not main_file(s).startswith("/statebox-cow-"), "STATEBOX_COW=0 must give a deserialized copy"
        assert "STATEBOX_COW=0" in cow.status() or not cow.available(), cow.status()
    else:
        assert main_file(s).startswith("/statebox-cow-"), main_file(s)
        assert "statebox-cow VFS" in cow.status(), cow.status()
    s.close()


# -- the overlay's memory (copy-on-write only) ---------------------------------------------------


@pytest.fixture
def overlay(restore):
    if restore != "cow":
        pytest.skip("the overlay exists on the copy-on-write path only")

    def settled() -> dict[str, int]:
        gc.collect()  # sessions other tests left to the garbage collector close now, not in the middle of a count
        return cow.stats()

    return settled


def test_a_session_holds_only_the_pages_it_wrote(overlay, large):
    before = overlay()
    s = Session(large)
    s.update("emails_sent", "OLD-500", template="ticket_solved")
    s.insert("emails_sent", email(1))
    held = overlay()["overlay_bytes"] - before["overlay_bytes"]
    assert 0 < held <= 10 * 4096, f"{held:,} bytes held for two row writes in an image of {len(large.image):,}"
    s.close()


def test_a_closed_session_frees_its_overlay(overlay, large):
    before = overlay()
    s = Session(large)
    s.execute("UPDATE emails_sent SET template = 'ticket_solved'")  # every page of the table
    during = overlay()
    assert during["overlays_open"] == before["overlays_open"] + 1
    assert during["overlay_bytes"] - before["overlay_bytes"] > len(large.image) // 2, (before, during)
    s.close()
    after = overlay()
    assert (after["overlays_open"], after["overlay_bytes"], after["files_open"]) == (
        before["overlays_open"], before["overlay_bytes"], before["files_open"]), (before, after)


def test_an_image_dropped_while_a_session_reads_it_lives_until_the_session_closes(overlay, large):
    before = overlay()
    handle = cow.register(large.image)
    assert handle is not None and overlay()["images"] == before["images"] + 1
    name, conn = handle.name, cow.connect(handle)
    del handle
    gc.collect()
    assert overlay()["images"] == before["images"], "a dropped image is no longer registered"
    with pytest.raises(sqlite3.OperationalError, match="unable to open"):
        sqlite3.connect(f"file:{name}?vfs=statebox-cow", uri=True)
    conn.execute("UPDATE emails_sent SET template = 'x' WHERE id = 'OLD-1'")
    assert conn.execute("SELECT count(*) FROM emails_sent").fetchone() == (ROWS,)
    conn.close()
    after = overlay()
    assert (after["files_open"], after["overlay_bytes"]) == (before["files_open"], before["overlay_bytes"]), after


def test_an_image_no_one_registered_cannot_be_opened(overlay):
    with pytest.raises(sqlite3.OperationalError, match="unable to open"):
        sqlite3.connect("file:/statebox-cow-0?vfs=statebox-cow", uri=True)


def test_where_a_compiler_and_sqlite_headers_exist_the_extension_is_built():
    buildable = sys.platform == "linux" and shutil.which("gcc") and Path("/usr/include/sqlite3.h").exists()
    if not buildable:
        pytest.skip("no gcc or no sqlite3.h here: the fallback is expected")
    assert cow.available(), cow.status()
