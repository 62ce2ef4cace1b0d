"""The HTML report's attempts: a light index in the page, transcripts and diffs in chunks loaded on demand.

Each attempt's full view (transcript, discrepancies, effects, ...) goes into a chunk of at most
`ChunkLimits.attempts` attempts (and about `ChunkLimits.bytes` of JSON). A chunk is a small script,
`REPORT.files/attempts-0001.js`, calling `stateboxChunk(report_id, number, [attempt, ...])`: the page
adds a `<script src>` for it when an attempt is opened, which works from file:// where fetch() is
blocked. The page itself carries only the index row of each attempt (`IndexRow`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pydantic import AliasPath, BaseModel, Field, StrictInt

from statebox.agents.transcript import Speaker
from statebox.judge.fidelity import SimulatorFault
from statebox.judge.rubrics import RubricResult
from statebox.judge.verdict import Discrepancy
from statebox.report.trial_summary import TrialSummary
from statebox.runner.record import FinishReason, trial_id, trial_record_view
from statebox.users.base import EndReason

CHUNK_FUNCTION = "stateboxChunk"
CHUNK_FILE = "attempts-{:04d}.js"

# An attempt's index row in the page: [repeat, passed (0/1), signature (index into the run's
# `signatures`, -1 for none), chunk number, slot in the chunk, simulator fault kinds], then the trial id
# (what an `#attempt=TRIAL` link names) only when it is not the usual suite/task/agent/model/repeat.
IndexRow = list[Any]
Escape = Callable[[Any], str]


@dataclass(frozen=True)
class ChunkLimits:
    """A chunk closes at this many attempts or this much JSON, whichever comes first."""

    attempts: int = 250
    bytes: int = 2_000_000


@dataclass
class Chunk:
    """One chunk's number and the JSON texts (already script-safe) of its attempts."""

    number: int
    attempts: list[str] = field(default_factory=list)
    size: int = 0

    def script(self, report_id: str) -> str:
        """The chunk file's whole text: one call of the page's registration function."""
        return f'{CHUNK_FUNCTION}("{report_id}",{self.number},[{",".join(self.attempts)}]);\n'

    def json(self) -> str:
        """The attempts as a JSON array (for a chunk inlined into a single-file page)."""
        return f"[{','.join(self.attempts)}]"


class Chunker:
    """Places attempts into chunks in the order given; hands each full chunk to `emit`."""

    def __init__(self, limits: ChunkLimits, emit: Callable[[Chunk], None]) -> None:
        self.limits, self.emit = limits, emit
        self.current = Chunk(1)
        self.count = 0

    def add(self, attempt_json: str) -> tuple[int, int]:
        """Add one attempt; its (chunk number, slot)."""
        chunk = self.current
        full = len(chunk.attempts) >= self.limits.attempts or chunk.size + len(attempt_json) > self.limits.bytes
        if chunk.attempts and full:
            self.emit(chunk)
            chunk = self.current = Chunk(chunk.number + 1)
        chunk.attempts.append(attempt_json)
        chunk.size += len(attempt_json) + 1
        self.count = chunk.number
        return chunk.number, len(chunk.attempts) - 1

    def close(self) -> None:
        if self.current.attempts:
            self.emit(self.current)


def index_row(t: TrialSummary, signatures: dict[str, int], where: tuple[int, int]) -> IndexRow:
    """What the task table, the attempt buttons and the filters need of an attempt."""
    signature = -1 if t.signature is None else signatures.setdefault(t.signature, len(signatures))
    row = [t.repeat, int(t.passed), signature, where[0], where[1], list(t.faults)]
    usual = trial_id(t.suite, t.task_id, t.agent, t.model, t.repeat)
    return row if t.trial_id == usual else [*row, t.trial_id]


def report_id(parts: Iterator[str]) -> str:
    """A short id tying chunk files to the page that wrote them (a stale folder is refused, not shown)."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


class _ViewCall(BaseModel):
    name: str
    arguments: dict[str, Any] | None = None
    raw_arguments: str | None = None


class _ViewEntry(BaseModel):
    role: Speaker
    content: str = ""
    tool_calls: list[_ViewCall] = Field(default_factory=list)
    tool_name: str | None = None
    is_error: bool = False
    error_kind: str | None = None


@trial_record_view("transcript")
class AttemptView(BaseModel):
    """One attempt as the drill-down shows it, validated and written straight from its trial line (the
    fields of `TrialRecord`, with the same types, checked; timings, usage and hashes left out: they are not shown)."""

    schema_version: StrictInt = Field(default=1, exclude=True)
    trial_id: str
    repeat: int
    passed: bool
    state_passed: bool
    signature: str | None = None
    finish_reason: FinishReason | None
    customer_end_reason: EndReason | None = None
    cost_usd: dict[str, float | None] = Field(default_factory=dict)
    discrepancies: list[Discrepancy] = Field(default_factory=list)
    simulator_faults: list[SimulatorFault] = Field(default_factory=list)
    rubrics: list[RubricResult] = Field(default_factory=list)
    effects: dict[str, Any] = Field(default_factory=dict)
    transcript: list[_ViewEntry] = Field(default_factory=list, validation_alias=AliasPath("transcript", "entries"))
