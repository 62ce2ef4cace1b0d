"""A domain's shape from its tasks' shapes: distinct writes, shares, near-duplicates, reviews, minimums missed."""

from __future__ import annotations

from collections import defaultdict

from statebox.judge.reference_trace import reference_trace
from statebox.judge.replay import ReferenceFailed, replay
from statebox.judge.shape.measure import task_shape
from statebox.judge.shape.model import MINIMUMS, DomainShape, Minimums, SuiteShape, TaskShape
from statebox.tasks import Domain, RefCall, Task
from statebox.tasks.review import ReviewState, load_reviews, review_state
from statebox.tasks.worlds import TaskWorlds
from statebox.tools.surface import ToolOutcome

_REVIEW_LINES: dict[ReviewState, str] = {
    "missing": "no blind review",
    "stale": "its blind review is of an earlier version of the task (review it again)",
    "open": "its blind review disagrees, with no resolution yet",
}


def measure_suite(suite: TaskWorlds) -> SuiteShape:
    """Replay every reference once and measure the shape of each of the suite's domains."""
    shapes = []
    for task in suite.tasks:
        played: list[tuple[RefCall, ToolOutcome]] = []
        try:
            replay(suite, task, task.reference, played=played)
        except ReferenceFailed as e:
            failed = task_shape(suite, task, reference_trace(task, played))
            shapes.append(failed.model_copy(update={"problems": [str(e), *failed.problems]}))
            continue
        shapes.append(task_shape(suite, task, reference_trace(task, played)))
    return suite_shape(suite, shapes)


def suite_shape(suite: TaskWorlds, shapes: list[TaskShape]) -> SuiteShape:
    """Every domain's totals from the tasks' shapes (as `validate_task` records them)."""
    by_domain: dict[str, list[TaskShape]] = defaultdict(list)
    for s in shapes:
        by_domain[s.domain].append(s)
    tasks = {t.id: t for t in suite.tasks}
    return SuiteShape(domains=[
        domain_shape(suite.domains[name], [tasks[s.id] for s in found], found)
        for name, found in sorted(by_domain.items())
    ])


def domain_shape(domain: Domain, tasks: list[Task], shapes: list[TaskShape],
                 minimums: Minimums = MINIMUMS) -> DomainShape:
    problems = {s.id: list(s.problems) for s in shapes}
    for s in shapes:
        if s.helpdesk_only:
            problems[s.id].append("writes only helpdesk records: " + ", ".join(dict.fromkeys(s.writes or ["codes"])))
    clusters = near_duplicates(shapes)
    for cluster in clusters:
        for task_id in cluster:
            others = ", ".join(t for t in cluster if t != task_id)
            problems[task_id].append(f"near-duplicate of {others} (same writes, same policy sections)")
    reviews = _reviews(domain, tasks, problems)
    helpdesk = sum(s.helpdesk_only for s in shapes)
    shape = DomainShape(
        domain=domain.name, tasks=len(shapes), read_only=sum(s.read_only for s in shapes),
        write_sequences=len({tuple(s.writes) for s in shapes}),
        write_sequences_with_keys=len({tuple(s.write_keys) for s in shapes}),
        helpdesk_only=helpdesk, helpdesk_share=round(helpdesk / len(shapes), 4) if shapes else 0.0,
        unverified_tasks=sum(s.unverified for s in shapes),
        discoverable_facts=sum(len(s.discoverable) for s in shapes),
        unconfirmed_writes=sum(len(s.unconfirmed) for s in shapes),
        near_duplicates=clusters, largest_cluster=max((len(c) for c in clusters), default=1),
        reviews=reviews, below_minimum=[], task_problems={k: v for k, v in problems.items() if v},
    )
    return shape.model_copy(update={"below_minimum": below_minimum(shape, minimums)})


def near_duplicates(shapes: list[TaskShape]) -> list[list[str]]:
    """Groups of 2+ tasks with the same write sequence and the same declared policy sections."""
    groups: dict[tuple[tuple[str, ...], frozenset[int]], list[str]] = defaultdict(list)
    for s in shapes:
        if s.policy_sections:  # a task that declares none has its own problem line
            groups[(tuple(s.writes), frozenset(s.policy_sections))].append(s.id)
    return sorted((sorted(ids) for ids in groups.values() if len(ids) > 1), key=lambda c: (-len(c), c))


def below_minimum(shape: DomainShape, m: Minimums = MINIMUMS) -> list[str]:
    """Each measure that misses its bar, as 'measure: measured vs bar'."""
    checks = [
        ("distinct write sequences", shape.write_sequences, m.write_sequences,
         shape.write_sequences >= m.write_sequences),
        ("helpdesk-only share", f"{shape.helpdesk_share:.0%}", f"<= {m.helpdesk_share:.0%}",
         shape.helpdesk_share <= m.helpdesk_share),
        ("discoverable private facts", shape.discoverable_facts, m.discoverable_facts,
         shape.discoverable_facts <= m.discoverable_facts),
        ("unverified tasks", shape.unverified_tasks, m.unverified_tasks, shape.unverified_tasks <= m.unverified_tasks),
        ("unconfirmed writes", shape.unconfirmed_writes, m.unconfirmed_writes,
         shape.unconfirmed_writes <= m.unconfirmed_writes),
        ("largest near-duplicate cluster", shape.largest_cluster, f"<= {m.near_duplicate_cluster}",
         shape.largest_cluster <= m.near_duplicate_cluster),
    ]
    return [f"{name}: {got} vs {bar}" for name, got, bar, ok in checks if not ok]


def _reviews(domain: Domain, tasks: list[Task], problems: dict[str, list[str]]) -> dict[ReviewState, int]:
    records = load_reviews(domain)
    counts: dict[ReviewState, int] = {"current": 0, "stale": 0, "open": 0, "missing": 0}
    for task in tasks:
        record = records.get(task.id)
        if isinstance(record, Exception):
            problems[task.id].append(f"review record unreadable: {record}")
            record = None
        state = review_state(record, task, domain)
        counts[state] += 1
        if state in _REVIEW_LINES:
            problems[task.id].append(_REVIEW_LINES[state])
    return counts
