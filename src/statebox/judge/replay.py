"""Required effects: replay a reference solution on a fresh session. A failing call is a task bug."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from statebox.judge.rules import JudgingRules
from statebox.judge.state import judge_state
from statebox.judge.verdict import Verdict
from statebox.tasks import RefCall, Task
from statebox.tasks.references import ReferenceResolutionError, resolve
from statebox.tasks.worlds import TaskWorlds
from statebox.tools import BoundTools
from statebox.tools.surface import ToolOutcome
from statebox.world import Effects, Session


class ReferenceFailed(RuntimeError):
    """A reference call failed: the task is broken, not the agent."""

    def __init__(self, task: Task, index: int, call: RefCall, error: str) -> None:
        self.task_id, self.index, self.tool, self.error = task.id, index, call.tool, error
        super().__init__(f"task {task.id!r}: reference call {index} ({call.tool}) failed: {error}")


def replay(
    suite: TaskWorlds,
    task: Task,
    calls: Sequence[RefCall],
    skip: Iterable[int] = (),
    at_end: Callable[[Session], None] | None = None,
    played: list[tuple[RefCall, ToolOutcome]] | None = None,
) -> Effects:
    """The effects of running `calls` (except the skipped indexes) from the task's initial state.

    Customer calls (`actor: customer`) run with the domain's customer tools. `at_end` sees the
    session after the last call (validation reads the customer's side there); `played` collects
    each call with its outcome.
    """
    skipped = set(skip)
    session = suite.open_session(task)
    domain = suite.domain_of(task)
    agent, customer = BoundTools(domain.tools, session), BoundTools(domain.customer_tools, session)
    saved: dict[str, object] = {}
    try:
        for i, call in enumerate(calls):
            if i in skipped:
                continue
            try:
                args = resolve(call.args, saved)
            except ReferenceResolutionError as e:
                raise ReferenceFailed(task, i, call, str(e)) from None
            outcome = (customer if call.actor == "customer" else agent).call(call.tool, args)
            if played is not None:
                played.append((call, outcome))
            if outcome.is_error:
                raise ReferenceFailed(task, i, call, outcome.text)
            if call.save_as:
                saved[call.save_as] = outcome.data
        effects = session.effects()
        if at_end is not None:
            at_end(session)
        return effects
    finally:
        session.close()


def required_effects(suite: TaskWorlds, task: Task) -> list[Effects]:
    """The acceptable end states: the reference's, then each declared alternative's."""
    return [replay(suite, task, calls) for calls in [task.reference, *task.expect.alternatives]]


def rules_for(suite: TaskWorlds, task: Task) -> JudgingRules:
    return JudgingRules.for_task(suite.domain_of(task).world, task.expect.ignore_fields)


def judge_attempt(actual: Effects, required: list[Effects], rules: JudgingRules) -> Verdict:
    """Passed if the effects match any acceptable end state; otherwise the closest one's verdict."""
    best: Verdict | None = None
    for i, expected in enumerate(required):
        v = judge_state(actual, expected, rules)
        if v.passed:
            return v.model_copy(update={"matched_alternative": i})
        if best is None or len(v.discrepancies) < len(best.discrepancies):
            best = v
    assert best is not None, "a task always has at least the reference end state"
    return best
