"""`statebox validate thinkingbox-bench`: the reference and no-op checks against the real servers,
and an audit the benchmark never had.

The reference passes when replaying it gives the golden hash; doing nothing must fail unless the
golden state equals the initial one (the task changes nothing). The audit, reported as findings,
not failures: every state-changing reference call is replayed away in turn, and a task that
still passes without it has an unnecessary golden write; and statebox's typed judge is compared
with the hash on the reference and the no-op. Keys are those of the built-in validation record
plus the audit's; mutants, which need statebox's own world, are null.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from pydantic import Field

from statebox.compat.common.validation import DEFAULT_CONCURRENCY, Replay, TaskValidation, validate_each
from statebox.compat.thinkingbox.backend import TbBackend
from statebox.compat.thinkingbox.protocol import reserved_geteffects
from statebox.compat.thinkingbox.source import TbSource
from statebox.compat.thinkingbox.suite import TbSuite
from statebox.runner.backend import AttemptBackend, StateOutcome
from statebox.tasks import Task


class TbTaskValidation(TaskValidation):
    """One task's checks, with the keys of the `validate --json` record (`necessary_calls` stays null)."""

    unnecessary_writes: list[str] = Field(default_factory=list)  # "call N (tool)": passes without it
    typed_reference_passes: bool | None = None  # statebox's typed judge (None: states unreadable)
    noop_passes: bool | None = None  # by the hash, read-only tasks included
    typed_noop_passes: bool | None = None
    noop_kinds: list[str] = Field(default_factory=list)  # the typed discrepancy kinds of the no-op
    judge_disagreements: list[str] = Field(default_factory=list)  # where typed judge and hash differ, why


async def validate_tb_suite(
    suite: TbSuite, *, concurrency: int = DEFAULT_CONCURRENCY, on_done: Callable[[], None] | None = None
) -> list[TbTaskValidation]:
    """Validate every task of the suite, `concurrency` tasks at a time, in the suite's order."""
    source = suite.attempt_source()
    source.prepare(suite.tasks)
    return await validate_each(
        source, suite.tasks, lambda task: validate_tb_task(source, task), concurrency=concurrency, on_done=on_done
    )


def replay(source: TbSource) -> Replay:
    """The benchmark's references replayed: every server's result state compared after each call (the servers
    don't say which of their tools write); the verdict is the servers', so the agent's reply is not logged."""
    return Replay(source, _result_states, logs_reply=False)


async def validate_tb_task(source: TbSource, task: Task) -> TbTaskValidation:
    """The reference and no-op checks and the audit of one task; problems are collected, never raised."""
    result = TbTaskValidation(id=task.id, reference_passes=False, read_only=None, noop_fails=None, tags=task.tags)
    runs = await replay(source).checked(task, result)
    if runs is None:
        return result
    runs.record(result)
    reference, noop = runs.reference, runs.noop
    result.noop_passes = noop.verdict.passed
    result.unnecessary_writes = runs.unnecessary_writes(task)
    result.typed_reference_passes = reference.effects.get("typed", {}).get("passed")
    result.typed_noop_passes = noop.effects.get("typed", {}).get("passed")
    result.noop_kinds = sorted(noop.verdict.kinds())
    for name, outcome, typed in (("reference", reference, result.typed_reference_passes),
                                 ("no-op", noop, result.typed_noop_passes)):  # fmt: skip
        if typed is not None and typed != outcome.verdict.passed:
            result.judge_disagreements.append(_disagreement(name, outcome, typed))
    for entry in runs.transcript.tool_results():
        if entry.is_error:
            result.problems.append(f"reference call {entry.tool_call_id} ({entry.tool_name}) failed: {entry.content}")
    if not result.reference_passes:
        shown = "; ".join(d.describe() for d in reference.verdict.discrepancies[:3])
        custom = reference.effects.get("custom_check")
        golden = f"the reference does not reach the golden state ({shown or 'hashes differ'})"
        result.problems.append(custom["summary"] if custom else golden)
    if result.read_only and noop.verdict.passed is False:
        result.problems.append("the golden state equals the initial one, yet doing nothing fails")
    return result


def _disagreement(name: str, outcome: StateOutcome, typed: bool) -> str:
    hashed = "passes" if outcome.verdict.passed else "fails"
    if typed:
        servers = outcome.effects.get("servers", {}).values()
        diff = "; ".join(item for info in servers for item in info.get("diff_sample", []))
        why = "only fields it does not judge, or generated ids it matched by content, differ"
        return f"{name}: the hash {hashed}, the typed judge finds no discrepancy ({why}; the servers' diff: {diff})"
    shown = "; ".join(d.describe()[:160] for d in outcome.verdict.discrepancies[:3])
    return f"{name}: the hash {hashed}, the typed judge finds {len(outcome.verdict.discrepancies)}: {shown}"


async def state_changing_calls(source: TbSource, task: Task) -> list[int]:
    """The reference calls that change the servers' state: the reference replayed call by call,
    the result state read after each (the servers don't say which of their tools write)."""
    return await replay(source).state_changing_calls(task)


async def _result_states(backend: AttemptBackend) -> list[Any]:
    assert isinstance(backend, TbBackend)
    states = []
    for link in backend.links:
        report = partial(reserved_geteffects, link.session, link.name)
        states.append((await link.guard("__reserved__geteffects", report)).result_db_state)
    return states
