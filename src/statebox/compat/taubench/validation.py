"""`statebox validate tau-bench:*`: the reference, no-op and necessity checks on τ-bench's own code, and an audit.

The reference (the task's actions, then its required outputs said) must earn τ-bench's reward; doing
nothing must not, for a task whose actions change the data. Each reference call is replayed with the
data's hash read after it, so the calls that change state are known (and a tool statebox counts as
read-only must never change it); each of those is left out in turn, and a task that still passes
without it has an unnecessary write. The audit, reported as findings, not failures: unnecessary
writes, required outputs that cannot be said without a tool call (τ-bench's match finds them nowhere
in the customer's instruction), tasks whose actions change nothing, and where statebox's typed judge
and τ-bench's hash disagree.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import Field

from statebox.compat.common.counts import audit_counts, in_order
from statebox.compat.common.validation import DEFAULT_CONCURRENCY, Replay, TaskValidation, validate_each
from statebox.compat.taubench.backend import TauBackend
from statebox.compat.taubench.source import TauSource
from statebox.compat.taubench.suite import TauSuite
from statebox.compat.taubench.surface import READ_ONLY
from statebox.compat.taubench.task import TauBenchTask
from statebox.runner.backend import AttemptBackend, StateOutcome
from statebox.runner.taskset import Listing
from statebox.suites.provider import ValidationReport

# The counts of `validate --json`, in the order it has always given them.
COUNTS = ("tasks", "ok", "reference_passes", "noop_fails", "read_only", "writes", "unnecessary_writes",
          "tasks_with_unnecessary_writes", "tasks_with_outputs", "outputs_needing_calls", "judge_attempts",
          "judge_disagreements")  # fmt: skip


class TauTaskValidation(TaskValidation):
    """One task's checks, with the keys of the `validate --json` record."""

    state_hash: str | None = None  # after the reference, by τ-bench's get_data_hash
    gt_data_hash: str | None = None  # after τ-bench's own replay of the actions
    unnecessary_writes: list[str] = Field(default_factory=list)  # "call N (tool)": passes without it
    outputs_needing_calls: list[str] = Field(default_factory=list)  # required outputs not in the instruction
    typed_reference_passes: bool | None = None
    typed_noop_passes: bool | None = None
    judge_disagreements: list[str] = Field(default_factory=list)


async def validate_tau_suite(
    suite: TauSuite, *, concurrency: int = DEFAULT_CONCURRENCY, on_done: Callable[[], None] | None = None
) -> list[TauTaskValidation]:
    """Validate every task of the suite, `concurrency` tasks at a time, in the suite's order."""
    source = suite.attempt_source()
    tasks = [suite.tau_task(t.id) for t in suite.tasks]
    return await validate_each(
        source, tasks, lambda task: validate_tau_task(source, task), concurrency=concurrency, on_done=on_done
    )


def replay(source: TauSource) -> Replay:
    """τ-bench's references replayed: its data's hash compared after each call, and what the agent says to the
    customer in the transcript (τ-bench's outputs rule grades it)."""
    return Replay(source, _state_hash, logs_reply=True)


async def _state_hash(backend: AttemptBackend) -> str:
    assert isinstance(backend, TauBackend)
    return await backend.state_hash()


async def validate_tau_task(source: TauSource, task: TauBenchTask) -> TauTaskValidation:
    """The checks and the audit of one task; problems are collected, never raised."""
    result = TauTaskValidation(id=task.id, reference_passes=False, read_only=None, noop_fails=None, tags=task.tags)
    result.outputs_needing_calls = [o for o in task.tau.outputs if not said(o, [task.tau.instruction])]
    runs = await replay(source).checked(task, result)
    if runs is None:
        return result
    runs.record(result)
    reference, noop = runs.reference, runs.noop
    tau = reference.effects["tau_bench"]
    result.state_hash, result.gt_data_hash = tau["state_hash"], tau["gt_data_hash"]
    result.necessary_calls = not runs.needless
    result.unnecessary_writes = runs.unnecessary_writes(task)
    result.typed_reference_passes = reference.effects["typed"]["passed"]
    result.typed_noop_passes = noop.effects["typed"]["passed"]
    for name, outcome in (("reference", reference), ("no-op", noop)):
        if not outcome.effects["typed"]["agrees_with_hash"]:
            result.judge_disagreements.append(_disagreement(name, outcome))
    misread = [task.reference[i].tool for i in runs.changing if task.reference[i].tool in READ_ONLY]
    result.problems += [f"{tool} changed the data, but statebox counts it as read-only" for tool in misread]
    if not result.reference_passes:
        shown = "; ".join(d.describe() for d in reference.verdict.discrepancies[:3]) or "hashes differ"
        result.problems.append(f"the reference does not earn τ-bench's reward ({shown})")
    return result


def said(output: str, texts: list[str]) -> bool:
    """τ-bench's outputs rule: the output, lower-cased, in one of the texts lower-cased without commas."""
    return any(output.lower() in text.lower().replace(",", "") for text in texts)


def _disagreement(name: str, outcome: StateOutcome) -> str:
    hashed = "passes" if outcome.effects["tau_bench"]["r_actions"] else "fails"
    state = [d for d in outcome.verdict.discrepancies if d.table != "(outputs)"]
    shown = "; ".join(d.describe()[:160] for d in state[:3]) or "no discrepancy"
    return f"{name}: τ-bench's hash {hashed}, the typed judge finds {len(state)}: {shown}"


async def state_changing_calls(source: TauSource, task: TauBenchTask) -> list[int]:
    """The reference calls after which the data's hash (τ-bench's) differs from before."""
    return await replay(source).state_changing_calls(task)


def validation_counts(results: list[TauTaskValidation]) -> dict[str, int]:
    own = {
        "noop_fails": sum(r.noop_fails is True for r in results),
        "tasks_with_outputs": sum("outputs" in r.tags for r in results),
        "outputs_needing_calls": sum(len(r.outputs_needing_calls) for r in results),
    }
    return in_order(COUNTS, audit_counts(results, "writes"), own)


def validation_report(suite: TauSuite, results: list[TauTaskValidation]) -> ValidationReport:
    c = validation_counts(results)
    agree = c["judge_attempts"] - c["judge_disagreements"]
    summary = [
        f"{suite.name}: {c['ok']}/{c['tasks']} tasks pass the checks (reference passes {c['reference_passes']}, "
        f"no-op fails {c['noop_fails']}, no writes {c['read_only']})",
        f"unnecessary writes: {c['unnecessary_writes']} of {c['writes']} state-changing reference calls, "
        f"in {c['tasks_with_unnecessary_writes']} tasks (the task earns the reward without them)",
        f"required outputs that cannot be said without a tool call: {c['outputs_needing_calls']} "
        f"(in {c['tasks_with_outputs']} tasks with outputs)",
        f"typed judge agrees with τ-bench's hash on {agree}/{c['judge_attempts']} reference and no-op attempts",
    ]
    columns = ("task", "reference passes", "no-op fails", "writes", "problems", "findings")
    table = Listing(f"{suite.name}: reference, no-op and necessity checks on τ-bench's own code", columns)
    for r in results:
        findings = ([f"unnecessary write: {w}" for w in r.unnecessary_writes]
                    + [f"output needs a tool call: {o}" for o in r.outputs_needing_calls]
                    + (["no writes"] if r.read_only else []) + r.judge_disagreements)  # fmt: skip
        table.rows.append(
            (r.id, r.reference_passes, r.noop_fails, r.writes, "; ".join(r.problems), "; ".join(findings))
        )
    return ValidationReport(
        ok=c["ok"] == c["tasks"],
        table=table,
        summary="\n".join(summary),
        json={"suite": suite.name, "tasks": [r.model_dump() for r in results], "counts": c},
    )
