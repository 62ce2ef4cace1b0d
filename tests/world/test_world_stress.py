"""Under load and crashes the copy-on-write path does exactly what copying the image does.

Many threads open, write and close sessions over one image at once, while others register and drop
images; some attempts crash in the middle of a transaction, some threads die with their session
still open, and a forked process is killed in the middle of a write. Every attempt's effects are
compared with the same workload run on the copy path (STATEBOX_COW=0).
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import json
import os
import random
import signal
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from minidomain import WORLD, seed
from statebox.world import Session, Snapshot, cow

ROWS = 3000
THREADS = 12
SESSIONS_PER_THREAD = 20
EffectsKey = tuple[int, int]


@pytest.fixture
def restore() -> str:
    """Each test here runs both paths itself, to compare them: run once, not once per path."""
    if not cow.available():
        pytest.skip(cow.status())
    return "both"


def _emails(conn: sqlite3.Connection) -> None:
    seed(conn)
    conn.executemany(
        "INSERT INTO emails_sent VALUES (?, 'old@example.com', 'ticket_created', NULL, '2024-01-01T00:00:00')",
        ((f"OLD-{i:05d}",) for i in range(ROWS)),
    )


@pytest.fixture(scope="module")
def image() -> Snapshot:
    """The mini world with 3,000 old emails: an image of a few dozen pages."""
    return Snapshot.build(dataclasses.replace(WORLD, seed=_emails))


class Crash(Exception):
    """What a tool raising in the middle of its writes looks like to the session."""


def summary(session: Session) -> list[Any]:
    """The effects, as plain data that compares equal exactly when the effects are the same."""
    return [c.model_dump(mode="json") for c in session.effects().changes]


def attempt(session: Session, worker: int, n: int) -> list[Any]:
    """One attempt's writes: committed transactions, one that crashes mid-way (rolled back), then the effects."""
    rng = random.Random(worker * 1000 + n)
    for step in range(5):
        with session.transaction():
            session.insert("emails_sent", {"id": f"E-{worker}-{n}-{step}", "to_address": "x@example.com",
                                           "template": "ticket_created", "sent_at": "2024-05-01"})
            session.update("emails_sent", f"OLD-{rng.randrange(ROWS):05d}", template=f"by-{worker}-{n}")
            if step == 3:
                session.execute("DELETE FROM emails_sent WHERE id = ?", f"OLD-{rng.randrange(ROWS):05d}")
    try:
        with session.transaction():  # most of the image's pages written, then the tool fails
            start = f"OLD-{rng.randrange(ROWS):05d}"
            session.execute("UPDATE emails_sent SET template = 'crashed' WHERE id >= ?", start)
            session.insert("emails_sent", {"id": f"CRASH-{worker}-{n}", "to_address": "y@example.com",
                                           "template": "crashed", "sent_at": "2024-05-01"})
            raise Crash
    except Crash:
        pass
    return summary(session)


def worker_run(image: Snapshot, worker: int) -> dict[EffectsKey, list[Any]]:
    seen: dict[EffectsKey, list[Any]] = {}
    for n in range(SESSIONS_PER_THREAD):
        session = Session(image)
        try:
            seen[(worker, n)] = attempt(session, worker, n)
            if n == 0:
                assert session.one("PRAGMA integrity_check") == {"integrity_check": "ok"}
        finally:
            session.close()
    return seen


def dies_with_its_session_open(image: Snapshot, worker: int) -> None:
    """A thread whose attempt raises out of an open transaction and never closes its session."""
    session = Session(image)
    with session.transaction():
        session.execute("UPDATE emails_sent SET template = 'abandoned'")
        raise Crash(f"worker {worker} died mid-write")


def churn(image: Snapshot, rounds: int) -> int:
    """Register and drop images (derived baselines), each read by a session, while the workers run."""
    opened = 0
    for i in range(rounds):
        derived = image.derive({"customers": [{"id": f"CU-churn-{i}", "name": "C", "email": f"c{i}@example.com"}]})
        session = Session(derived)
        opened += session.one("SELECT count(*) AS n FROM customers WHERE id = ?", f"CU-churn-{i}")["n"]
        session.close()
        del derived, session
    return opened


def stress(image: Snapshot) -> dict[EffectsKey, list[Any]]:
    """Every worker's effects, run with all the threads at once; the crashing and churning threads checked."""
    with ThreadPoolExecutor(max_workers=THREADS + 4) as pool:
        workers = [pool.submit(worker_run, image, w) for w in range(THREADS)]
        dying = [pool.submit(dies_with_its_session_open, image, w) for w in range(3)]
        churned = pool.submit(churn, image, 30)
        results: dict[EffectsKey, list[Any]] = {}
        for future in workers:
            results.update(future.result())
        for future in dying:
            with pytest.raises(Crash, match="died mid-write"):
                future.result()
        assert churned.result() == 30
    return results


def on_path(monkeypatch: pytest.MonkeyPatch, path: str, run: Callable[[], Any]) -> Any:
    monkeypatch.setenv(cow.ENV, "1" if path == "cow" else "0")
    return run()


def settled() -> dict[str, int]:
    gc.collect()  # sessions left open by dead threads close when collected
    return cow.stats()


def test_many_threads_over_one_image_give_the_copy_paths_effects(
    restore: str, image: Snapshot, monkeypatch: pytest.MonkeyPatch
) -> None:
    image.row("customers", "CU-1")  # the image's own reader (for effects) opens now, and stays open
    before_hash, before = hashlib.sha256(image.image).hexdigest(), settled()
    started = time.monotonic()
    on_cow = on_path(monkeypatch, "cow", lambda: stress(image))
    cow_s = time.monotonic() - started
    after = settled()
    on_copy = on_path(monkeypatch, "copy", lambda: stress(image))
    assert len(on_cow) == THREADS * SESSIONS_PER_THREAD
    differ = [key for key in on_copy if on_cow.get(key) != on_copy[key]]
    first = differ[0] if differ else None  # the first attempt whose effects differ
    assert not differ, f"{len(differ)} differ, first {first}: cow {on_cow.get(first)} copy {on_copy.get(first)}"
    assert hashlib.sha256(image.image).hexdigest() == before_hash, "the baseline image changed"
    held = {k: after[k] for k in ("images", "files_open", "overlays_open", "overlay_bytes")}
    assert held == {k: before[k] for k in held}, f"left behind after {cow_s:.1f} s: {before} -> {after}"


def test_a_crash_inside_a_transaction_leaves_only_the_committed_writes(restore: str, image: Snapshot,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    def one() -> list[Any]:
        session = Session(image)
        effects = attempt(session, 0, 0)
        crashed = session.one("SELECT count(*) AS n FROM emails_sent WHERE template = 'crashed'")
        session.close()
        assert crashed == {"n": 0}, "the crashed transaction's writes were kept"
        return effects

    on_cow, on_copy = on_path(monkeypatch, "cow", one), on_path(monkeypatch, "copy", one)
    assert on_cow == on_copy
    assert [c["kind"] for c in on_cow].count("insert") == 5, on_cow


def child_writes(image: Snapshot, report: int, then: str) -> None:
    """In a forked child: an attempt over the inherited image, its effects written to `report`, then
    either exit, or start rewriting every row and wait inside that transaction to be killed."""
    try:
        session = Session(image)
        os.write(report, json.dumps(attempt(session, 7, 7)).encode() + b"\n")
        if then == "be killed mid-write":
            with session.transaction():
                session.execute("UPDATE emails_sent SET template = 'child'")
                os.write(report, b"mid-write\n")
                time.sleep(60)
        session.close()
    finally:
        os._exit(0)


def forked(image: Snapshot, then: str) -> tuple[list[Any], int]:
    """Fork a child running `child_writes`; its effects and how it ended (a signal number, or 0)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        child_writes(image, write, then)
    os.close(write)
    with os.fdopen(read) as lines:
        effects = json.loads(lines.readline())
        if then == "be killed mid-write":
            assert lines.readline() == "mid-write\n"
            os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    return effects, os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def test_a_forked_child_killed_mid_write_changes_nothing_its_parent_sees(
    restore: str, image: Snapshot, monkeypatch: pytest.MonkeyPatch
) -> None:
    def run() -> dict[str, Any]:
        parent = Session(image)  # open across the fork, written before and after it
        parent.insert("emails_sent", {"id": "P-1", "to_address": "p@example.com", "template": "t", "sent_at": "x"})
        finished, code = forked(image, "exit")
        killed, signalled = forked(image, "be killed mid-write")
        parent.update("emails_sent", "OLD-00001", template="after the kill")
        fresh = Session(image)
        out = {"parent": summary(parent), "fresh": summary(fresh), "child": finished, "killed": killed,
               "ends": (code, signalled), "integrity": parent.one("PRAGMA integrity_check")}
        parent.close()
        fresh.close()
        return out

    before_hash = hashlib.sha256(image.image).hexdigest()
    on_cow, on_copy = on_path(monkeypatch, "cow", run), on_path(monkeypatch, "copy", run)
    assert on_cow["ends"] == (0, signal.SIGKILL), on_cow["ends"]
    assert on_cow == on_copy
    assert on_cow["fresh"] == [] and on_cow["integrity"] == {"integrity_check": "ok"}
    assert [c["key"] for c in on_cow["parent"]] == ["OLD-00001", "P-1"], on_cow["parent"]
    assert hashlib.sha256(image.image).hexdigest() == before_hash
