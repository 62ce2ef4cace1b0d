"""What a report keeps of a finished attempt: the fields its summaries and attempt index need, and where
the full record is, so a transcript or diff is read again (html.py) only when its chunk is written.

A line is validated against `TrialFields`, the summary fields of `TrialRecord` with the same types; the
rest of the line (transcript text, effects rows, usage) is skipped by the parser, never built in Python.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, StrictInt, ValidationError

from statebox.agents.transcript import Speaker
from statebox.judge.fidelity import FaultKind
from statebox.judge.verdict import DiscrepancyKind
from statebox.metrics import terminated_cleanly
from statebox.runner.record import SCHEMA_VERSION, FinishReason, trial_record_view
from statebox.runner.store import parse_record


class _Discrepancy(BaseModel):
    kind: DiscrepancyKind
    check: str | None = None


class _Fault(BaseModel):
    kind: FaultKind


class _Entry(BaseModel):
    role: Speaker
    is_error: bool = False


class _Transcript(BaseModel):
    entries: list[_Entry] = Field(default_factory=list)
    finish_reason: str | None = None


@trial_record_view("discrepancies", "simulator_faults", "transcript")
class TrialFields(BaseModel):
    """The fields of a trial line the report's numbers depend on (types as in `TrialRecord`, checked)."""

    schema_version: StrictInt = 1
    trial_id: str
    suite: str
    task_id: str
    domain: str
    agent: str
    model: str | None
    repeat: int
    passed: bool
    finish_reason: FinishReason | None
    signature: str | None = None
    successful_writes: int | None = None
    discrepancies: list[_Discrepancy] = Field(default_factory=list)
    simulator_faults: list[_Fault] = Field(default_factory=list)
    cost_usd: dict[str, float | None] = Field(default_factory=dict)
    effects: dict[str, Any] = Field(default_factory=dict)
    task_hash: str = ""
    transcript: _Transcript = Field(default_factory=_Transcript)


@dataclass(frozen=True, slots=True)
class RecordAt:
    """Where a record's line is: the file, its 1-based line number, byte offset and length."""

    path: Path
    line: int
    offset: int
    length: int


@dataclass(frozen=True, slots=True)
class TrialSummary:
    """One finished attempt as the summaries, the comparison and the HTML index see it."""

    trial_id: str
    suite: str
    task_id: str
    domain: str
    agent: str
    model: str | None
    repeat: int
    passed: bool
    signature: str | None
    cost_usd: dict[str, float | None]
    task_hash: str
    kinds: frozenset[str]  # of its discrepancies
    checks: frozenset[str]  # the policy checks it violated
    faults: tuple[str, ...]  # the simulated customer's fault kinds, sorted, once each
    typed_agrees: bool | None  # effects.typed.agrees_with_hash
    clean: bool  # terminated cleanly (docs/metrics.md)
    writes_recorded: bool
    transcript_finish: str | None
    entries: int  # transcript entries
    at: RecordAt


def read_summary(text: str, at: RecordAt) -> TrialSummary:
    """A trial line as a summary; ValueError (the store's reason) when the line is not a trial record."""
    try:
        fields = TrialFields.model_validate_json(text)
        if not 1 <= fields.schema_version <= SCHEMA_VERSION:
            fields = parse_record(text, TrialFields)  # raises, naming the version
    except ValidationError:
        fields = parse_record(text, TrialFields)  # the store's rules decide, and say why
    return summarize_fields(fields, at)


def summarize_fields(f: TrialFields, at: RecordAt) -> TrialSummary:
    typed = f.effects.get("typed")
    return TrialSummary(
        trial_id=f.trial_id,
        suite=f.suite,
        task_id=f.task_id,
        domain=f.domain,
        agent=f.agent,
        model=f.model,
        repeat=f.repeat,
        passed=f.passed,
        signature=f.signature,
        cost_usd=f.cost_usd,
        task_hash=f.task_hash,
        kinds=frozenset(d.kind for d in f.discrepancies),
        checks=frozenset(d.check for d in f.discrepancies if d.kind == "policy_violation" and d.check),
        faults=tuple(sorted({fault.kind for fault in f.simulator_faults})),
        typed_agrees=typed.get("agrees_with_hash") if isinstance(typed, dict) else None,
        clean=ended_cleanly(f),
        writes_recorded=f.successful_writes is not None,
        transcript_finish=f.transcript.finish_reason,
        entries=len(f.transcript.entries),
        at=at,
    )


def ended_cleanly(f: TrialFields) -> bool:
    """Whether a trial terminated cleanly (docs/metrics.md): its finish reason, its final tool result, and the
    signature's count of successful state-changing calls; a record from before that count has its effects."""
    results = [e for e in f.transcript.entries if e.role == "tool"]
    writes = f.successful_writes
    if writes is None:
        writes = int(changed_state(f.effects))
    return terminated_cleanly(f.finish_reason, results[-1].is_error if results else None, writes)


def changed_state(effects: dict[str, Any]) -> bool:
    """Whether a trial's effects record any inserted, updated or deleted row."""
    return any(rows for kind in ("inserted", "updated", "deleted") for rows in (effects.get(kind) or {}).values())
