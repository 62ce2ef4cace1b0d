"""Task validation: the reference passes, doing nothing fails, every write is needed, mutants are caught."""

from __future__ import annotations

from pydantic import BaseModel, Field

from statebox.judge.mutants import mutants
from statebox.judge.reference_trace import CheckValidation, reference_trace, validate_checks
from statebox.judge.replay import ReferenceFailed, judge_attempt, replay, required_effects, rules_for
from statebox.judge.rules import JudgingRules
from statebox.judge.shape import SuiteShape, TaskShape, suite_shape, task_shape
from statebox.judge.trace import violations
from statebox.tasks import RefCall, Task
from statebox.tasks.checks import check_tools
from statebox.tasks.references import references_in
from statebox.tasks.worlds import TaskWorlds
from statebox.tools import BoundTools
from statebox.tools.surface import ToolOutcome
from statebox.world import Effects, Session


class TaskValidation(BaseModel):
    """The checks of one task (the `validate --json` record)."""

    id: str
    reference_passes: bool
    read_only: bool
    noop_fails: bool | None
    necessary_calls: bool
    writes: int
    facts: int
    tags: list[str]
    mutants_caught: int
    mutants_total: int
    problems: list[str] = Field(default_factory=list)
    checks: list[CheckValidation] = Field(default_factory=list, description="the task's trace checks")
    shape: TaskShape | None = Field(
        default=None,
        description="what the task adds to its domain's shape (reported, "
        "not part of `ok`: the minimums are per domain)",
    )

    @property
    def ok(self) -> bool:
        return (
            self.reference_passes
            and self.noop_fails is not False
            and self.necessary_calls
            and self.mutants_caught == self.mutants_total
            and not self.problems
            and all(c.ok for c in self.checks)
        )


def validate_task(suite: TaskWorlds, task: Task) -> TaskValidation:
    """Run every check on one task; problems are collected, never raised."""
    tools = suite.domain_of(task).tools
    writes = [
        i for i, c in enumerate(task.reference) if c.actor == "agent" and c.tool in tools and tools[c.tool].writes
    ]
    problems = _lint(suite, task, len(writes))
    result = TaskValidation(
        id=task.id,
        reference_passes=False,
        read_only=task.read_only,
        noop_fails=None,
        necessary_calls=False,
        writes=len(writes),
        facts=len(task.customer.facts),
        tags=list(task.tags),
        mutants_caught=0,
        mutants_total=0,
        problems=problems,
    )
    try:
        required = required_effects(suite, task)

        def read_customer_side(session: Session) -> None:
            result.problems.extend(_customer_side(suite, task, session))

        played: list[tuple[RefCall, ToolOutcome]] = []
        again = replay(suite, task, task.reference, at_end=read_customer_side, played=played)
    except ReferenceFailed as e:
        result.problems.append(str(e))
        return result
    rules = rules_for(suite, task)
    _check_trace(suite, task, played, result)
    _check_judged(task, again, required, rules, result)
    _check_needed(suite, task, writes, required, result)
    _check_mutants(required, rules, result)
    return result


def _check_trace(
    suite: TaskWorlds, task: Task, played: list[tuple[RefCall, ToolOutcome]], result: TaskValidation
) -> None:
    """The task's shape, and each trace check: the reference keeps it, and a reference breaking it is caught."""
    trace = reference_trace(task, played)
    result.shape = task_shape(suite, task, trace)
    result.checks = validate_checks(task, trace)
    for c in result.checks:
        if not c.satisfied:
            result.problems.append(f"the reference violates trace check {c.check}")
        elif c.exercised and not c.mutant_caught:
            result.problems.append(f"trace check {c.check}: a reference that breaks it is not caught")


def _check_judged(
    task: Task, again: Effects, required: list[Effects], rules: JudgingRules, result: TaskValidation
) -> None:
    """The reference replayed passes; doing nothing fails, unless the task is read-only (then it must pass)."""
    result.reference_passes = judge_attempt(again, required, rules).passed
    if not result.reference_passes:
        result.problems.append("the reference does not reproduce its own end state (non-deterministic tool?)")
    noop_passes = judge_attempt(Effects(), required, rules).passed
    result.noop_fails = None if task.read_only else not noop_passes
    if task.read_only and not noop_passes:
        result.problems.append("declared read_only, but the reference changes state")


def _check_needed(
    suite: TaskWorlds, task: Task, writes: list[int], required: list[Effects], result: TaskValidation
) -> None:
    """Every state-changing reference call is needed by the judge."""
    unneeded = [f"{i} ({task.reference[i].tool})" for i in writes if not _needed(suite, task, i, required)]
    result.necessary_calls = not unneeded
    if unneeded:
        result.problems.append(f"reference call(s) not needed by the judge: {', '.join(unneeded)}")


def _check_mutants(required: list[Effects], rules: JudgingRules, result: TaskValidation) -> None:
    """Each mutant of the required end state is caught by the judge."""
    ms = mutants(required[0], rules)
    caught = [not judge_attempt(m.effects, required, rules).passed for m in ms]
    result.mutants_total, result.mutants_caught = len(ms), sum(caught)
    result.problems += [f"mutant not caught: {m.name}" for m, c in zip(ms, caught, strict=True) if not c]


def _needed(suite: TaskWorlds, task: Task, index: int, required: list[Effects]) -> bool:
    """Without this call the end state is not reached, or the trace breaks one of the task's checks."""
    played: list[tuple[RefCall, ToolOutcome]] = []
    try:
        without = replay(suite, task, task.reference, skip=[index], played=played)
    except ReferenceFailed:
        return True  # a later call depends on it: leaving it out cannot reach the end state
    if not judge_attempt(without, required, rules_for(suite, task)).passed:
        return True
    return bool(task.checks) and bool(violations(task.checks, reference_trace(task, played), task.customer.facts))


def _customer_side(suite: TaskWorlds, task: Task, session: Session) -> list[str]:
    """After the reference, each action-backed fact's action works and shows the fact's value."""
    actions = BoundTools(suite.domain_of(task).customer_tools, session)
    problems = []
    for fact in task.customer.facts:
        if fact.via is None:
            continue
        outcome = actions.call(fact.via.tool, dict(fact.via.args))
        if outcome.is_error:
            problems.append(f"fact {fact.key!r}: its action {fact.via.tool} fails after the reference: {outcome.text}")
        elif fact.value not in outcome.text:
            problems.append(
                f"fact {fact.key!r}: value {fact.value!r} is not what {fact.via.tool} shows: {outcome.text[:200]}"
            )
    return problems


def _lint(suite: TaskWorlds, task: Task, writes: int) -> list[str]:
    domain = suite.domain_of(task)
    problems = []
    for i, c in enumerate(task.reference):
        known = domain.customer_tools if c.actor == "customer" else domain.tools
        if c.tool not in known:
            problems.append(
                f"reference call {i} uses unknown {'customer ' if c.actor == 'customer' else ''}tool {c.tool!r}"
            )
    customer_saved = {c.save_as for c in task.reference if c.actor == "customer" and c.save_as}
    for i, c in enumerate(task.reference):
        if references_in(c.args) & customer_saved:
            problems.append(f"reference call {i} uses a customer call's result; use the fact's value instead")
    for trace_check in task.checks:
        unknown = [t for t in check_tools(trace_check) if t not in domain.tools]
        if unknown:
            problems.append(f"trace check {trace_check.name} names unknown tool(s) {unknown}")
    for fact in task.customer.facts:
        if fact.via is not None and fact.via.tool not in domain.customer_tools:
            problems.append(f"fact {fact.key!r} acts through unknown customer tool {fact.via.tool!r}")
    if not task.read_only and not 1 <= writes <= 8:
        problems.append(f"{writes} state-changing reference calls; a task needs 1 to 8")
    blob = repr([c.args for c in task.reference])
    for fact in task.customer.facts:
        if fact.value in task.opening_message:
            problems.append(f"private fact {fact.key!r} is already in the opening message")
        elif fact.value not in blob and fact.value not in repr(task.initial_rows):
            problems.append(f"private fact {fact.key!r} is not used by the reference or the initial rows")
    for lint in suite.domain_of(task).checks:
        problems += lint(task)
    return problems


def validate_suite(suite: TaskWorlds) -> list[TaskValidation]:
    return [validate_task(suite, t) for t in suite.tasks]


def shape_of(suite: TaskWorlds, validations: list[TaskValidation]) -> SuiteShape | None:
    """The shape of each domain of the suite, from its tasks' validations (None when none measured one)."""
    shapes = [v.shape for v in validations if v.shape is not None]
    return suite_shape(suite, shapes) if shapes else None
