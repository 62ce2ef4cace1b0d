"""Benchmarks of the world engine: fresh sessions, tool calls, effects, whole reference attempts.

    python benchmarks/bench_world.py                 # the retail suite
    python benchmarks/bench_world.py --suite mini    # the tiny test domain under tests/minidomain

Every measure is timed with time.perf_counter over many repetitions and reported as median and p90.
Effects extraction is also measured on a database grown to 100,000 rows, side by side with the naive
way (a full-table diff of every table against the start state), and the ratio is printed.
"""

from __future__ import annotations

import argparse
import dataclasses
import platform
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from statebox.judge import judge_attempt, replay, required_effects, rules_for
from statebox.judge.rules import JudgingRules
from statebox.suites import Suite, load_suite
from statebox.tasks import RefCall, Task
from statebox.tasks.references import resolve
from statebox.tools import BoundTools, Toolset
from statebox.world import Effects, Session

ROOT = Path(__file__).resolve().parent.parent
GROWN_ROWS = 100_000


# -- reporting ---------------------------------------------------------------------------------------


@dataclass
class Measure:
    name: str
    seconds: list[float]

    def median(self) -> float:
        return statistics.median(self.seconds)

    def p90(self) -> float:
        ordered = sorted(self.seconds)
        return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def fmt(seconds: float) -> str:
    if seconds >= 0.1:
        return f"{seconds:8.3f} s "
    if seconds >= 1e-3:
        return f"{seconds * 1e3:8.2f} ms"
    return f"{seconds * 1e6:8.1f} us"


def report(measures: list[Measure]) -> None:
    width = max(len(m.name) for m in measures)
    print(f"{'measure':<{width}}  {'median':>11}  {'p90':>11}  {'n':>6}")
    for m in measures:
        print(f"{m.name:<{width}}  {fmt(m.median())}  {fmt(m.p90())}  {len(m.seconds):>6}")


def timed(fn: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - t0, out


# -- the suite ---------------------------------------------------------------------------------------


def open_bench_suite(name: str) -> Suite:
    if name == "mini":
        sys.path.insert(0, str(ROOT / "tests"))
        from minidomain import mini_suite  # the test domain; not part of the package

        return mini_suite()
    try:
        return load_suite(name)
    except LookupError as e:
        sys.exit(f"{e}\n(try --suite mini, the test domain, until the {name!r} domain exists)")


def run_reference(
    bound: BoundTools, calls: Iterable[RefCall], on_call: Callable[[str, float], None] | None = None
) -> None:
    """Replay reference calls (resolving ${...}); a failure is a broken task, so it stops the benchmark."""
    saved: dict[str, Any] = {}
    for i, call in enumerate(calls):
        args = resolve(call.args, saved)
        t0 = time.perf_counter()
        outcome = bound.toolset.call(bound.session, call.tool, args)
        elapsed = time.perf_counter() - t0
        if outcome.is_error:
            raise SystemExit(f"reference call {i} ({call.tool}) failed: {outcome.text}")
        if on_call is not None:
            on_call(call.tool, elapsed)
        if call.save_as:
            saved[call.save_as] = outcome.data


# -- the naive way: diff every row of every table ----------------------------------------------------


Rows = dict[str, dict[Any, tuple[Any, ...]]]


def dump_tables(session: Session) -> Rows:
    out: Rows = {}
    cur = session.db.cursor()
    cur.row_factory = None  # plain tuples: the cheapest rows sqlite3 can give
    for table in session.baseline.tables:
        pk = session.baseline.table_columns[table].index(session.spec.table(table).primary_key)
        out[table] = {r[pk]: r for r in cur.execute(f'SELECT * FROM "{table}"')}
    return out


def full_diff(session: Session, start: Rows) -> int:
    """Changed rows found by comparing every row of every table with the start state."""
    now = dump_tables(session)
    changed = 0
    for table, rows in now.items():
        before = start[table]
        changed += sum(1 for k, r in rows.items() if before.get(k) != r)
        changed += sum(1 for k in before if k not in rows)
    return changed


# -- growing a database to 100,000 rows --------------------------------------------------------------


def unique_columns(db: sqlite3.Connection, table: str, pk: str) -> set[str]:
    cols = {pk}
    for index in db.execute(f'PRAGMA index_list("{table}")').fetchall():
        if index[2]:  # unique
            cols |= {r[2] for r in db.execute(f'PRAGMA index_info("{index[1]}")')}
    return cols


def grow(session: Session, total_rows: int) -> tuple[str, int]:
    """Add copies of a row to the largest table until the database holds `total_rows` rows; they become the start."""
    counts = {t: session.db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in session.baseline.tables}
    private = [t for t in counts if not session.spec.table(t).shared]  # shared tables are read-only
    table = max(private, key=lambda t: counts[t])
    missing = total_rows - sum(counts.values())
    if missing <= 0:
        return table, 0
    cols = session.baseline.table_columns[table]
    template = session.db.execute(f'SELECT * FROM "{table}" LIMIT 1').fetchone()
    unique = unique_columns(session.db, table, session.spec.table(table).primary_key)

    def copy(i: int) -> list[Any]:
        row = []
        for c, v in zip(cols, template, strict=True):
            if c in unique and isinstance(v, int):
                v = v + 10_000_000 + i
            elif c in unique and v is not None:
                v = f"{v}~bench{i}"
            row.append(v)
        return row

    marks = ", ".join("?" for _ in cols)
    session.db.executemany(f'INSERT INTO "{table}" VALUES ({marks})', (copy(i) for i in range(missing)))
    session.db.execute("DELETE FROM _sb_changes")  # the grown rows are the attempt's start, like initial rows
    return table, missing


# -- measures ----------------------------------------------------------------------------------------


def bench(suite: Suite, repeat: int) -> None:
    # Agent-only references: a customer's own step (a code read, an upload) is not an agent tool call.
    tasks = [t for t in suite.tasks if t.reference and all(c.actor == "agent" for c in t.reference)]
    if not tasks:
        sys.exit(f"suite {suite.name!r} has no task with a reference solution")
    required: dict[str, list[Effects]] = {t.id: required_effects(suite, t) for t in tasks}
    rules: dict[str, JudgingRules] = {t.id: rules_for(suite, t) for t in tasks}
    snapshots = {t.domain: suite.snapshot(t.domain) for t in tasks}
    rows = sum(
        Session(s).db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for s in snapshots.values() for t in s.tables
    )
    print(
        f"statebox world benchmarks: suite {suite.name!r}, {len(tasks)} tasks, {rows:,} seed rows, "
        f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, {platform.machine()}"
    )
    print()

    restore: list[float] = []
    deserialize: list[float] = []
    first_query: list[float] = []
    reads: list[float] = []
    writes: list[float] = []
    effects: list[float] = []
    naive: list[float] = []
    attempts: list[float] = []
    for _ in range(repeat):
        for task in tasks:
            restore.append(restore_once(suite, task, "naive"))
            deserialize.append(restore_once(suite, task, "image"))
            first_query.append(restore_once(suite, task, "schema"))
        for task in tasks:
            session = suite.open_session(task)
            bound = BoundTools(suite.domain_of(task).tools, session)

            def record(name: str, seconds: float, tools: Toolset = bound.toolset) -> None:
                (writes if tools[name].writes else reads).append(seconds)

            run_reference(bound, task.reference, record)
            start = dump_start(suite, task)
            effects.append(timed(session.effects)[0])
            naive.append(timed(full_diff, session, start)[0])
            session.close()
        for task in tasks:
            attempts.append(attempt_once(suite, task, required[task.id], rules[task.id]))

    captured = Measure("effects after a reference replay (captured)", effects)
    diffed = Measure("effects after a reference replay (full-table diff)", naive)
    big_captured, big_diffed = grown(suite, tasks, repeat)
    report(
        [
            Measure("fresh session at the task's start (baseline image + first query)", first_query),
            Measure("  of which deserialize", deserialize),
            Measure("  naive: pristine snapshot + initial rows per attempt", restore),
            Measure("tool call in process, read", reads),
            Measure("tool call in process, write", writes),
            captured,
            diffed,
            Measure("whole reference attempt incl. judging", attempts),
            big_captured,
            big_diffed,
        ]
    )
    print()
    print(
        "full-table diff / captured effects, median: "
        f"{diffed.median() / captured.median():,.1f}x at seed size, "
        f"{big_diffed.median() / big_captured.median():,.0f}x at {GROWN_ROWS:,} rows"
    )


def restore_once(suite: Suite, task: Task, upto: str) -> float:
    """Time a fresh session at the attempt's start: "image" (the task's baseline deserialized),
    "schema" (plus one query, so SQLite has parsed every table and trigger), or "naive" (the
    pristine snapshot plus the task's initial rows applied per attempt, then one query)."""
    suite.baseline(task)  # built once per task, outside the timing
    t0 = time.perf_counter()
    if upto == "naive":
        session = Session(suite.snapshot(task.domain), task.now)
        session.apply_rows(task.initial_rows)
    else:
        session = suite.open_session(task)
    if upto != "image":
        session.db.execute("SELECT count(*) FROM _sb_changes").fetchone()
    elapsed = time.perf_counter() - t0
    session.close()
    return elapsed


def dump_start(suite: Suite, task: Task) -> Rows:
    session = suite.open_session(task)
    try:
        return dump_tables(session)
    finally:
        session.close()


def attempt_once(suite: Suite, task: Task, required: list[Effects], rules: JudgingRules) -> float:
    t0 = time.perf_counter()
    session = suite.open_session(task)
    run_reference(BoundTools(suite.domain_of(task).tools, session), task.reference)
    verdict = judge_attempt(session.effects(), required, rules)
    session.close()
    elapsed = time.perf_counter() - t0
    if not verdict.passed:
        raise SystemExit(f"task {task.id!r}: the reference does not pass: {verdict.discrepancies}")
    return elapsed


def three_changes(suite: Suite, tasks: list[Task]) -> tuple[Task, list[RefCall]]:
    """The task and the prefix of its reference whose effects are closest to 3 changes (3 if any)."""
    options = [(t, t.reference[:k]) for t in tasks for k in range(1, len(t.reference) + 1)]
    return min(options, key=lambda o: abs(len(replay(suite, o[0], o[1]).changes) - 3))


def grown(suite: Suite, tasks: list[Task], repeat: int) -> tuple[Measure, Measure]:
    """Effects on a database grown to 100,000 rows, after reference calls that make about 3 changes.

    Each repetition is a new session restored from the grown image, so both ways are measured as an attempt
    pays them: once, on a connection that has not run these queries before.
    """
    task, calls = three_changes(suite, tasks)
    session = suite.open_session(task)
    table, added = grow(session, GROWN_ROWS)
    start = dump_tables(session)
    total = sum(len(r) for r in start.values())
    big = dataclasses.replace(session.baseline, image=session.db.serialize())
    session.close()
    captured: list[float] = []
    naive: list[float] = []
    changes = 0
    for i in range(max(20, repeat)):
        session = Session(big, task.now)
        run_reference(BoundTools(suite.domain_of(task).tools, session), calls)
        seconds, effects = timed(session.effects)
        captured.append(seconds)
        changes = len(effects.changes)
        if i < max(3, repeat // 4):
            seconds, found = timed(full_diff, session, start)
            naive.append(seconds)
            assert found == changes, "the two ways of finding changes disagree"
        session.close()
    print(f"grown database: {total:,} rows ({added:,} added to {table!r}); task {task.id!r} makes {changes} changes")
    return (
        Measure(f"effects, {total:,} rows, {changes} changes (captured)", captured),
        Measure(f"effects, {total:,} rows, {changes} changes (full-table diff)", naive),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="retail", help="a built-in suite, or 'mini' for the test domain")
    parser.add_argument("--repeat", type=int, default=40, help="repetitions of each per-task measure")
    args = parser.parse_args()
    bench(open_bench_suite(args.suite), args.repeat)


if __name__ == "__main__":
    main()
