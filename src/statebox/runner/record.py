"""The trial record: one line of trials.jsonl per finished attempt (a contract; see docs/run-directory.md)."""

from __future__ import annotations

import hashlib
from typing import Any

from pydantic import BaseModel, Field

from statebox.agents.transcript import Transcript
from statebox.judge import Discrepancy
from statebox.judge.rubrics import RubricResult
from statebox.llm.types import Usage

ROLES = ("agent", "user", "judge")


def trial_id(suite: str, task_id: str, agent: str, model: str | None, repeat: int) -> str:
    """Stable identity of one attempt."""
    return f"{suite}/{task_id}/{agent}/{model or '-'}/{repeat}"


def attempt_seed(trial: str) -> int:
    """A stable per-attempt seed derived from the trial id."""
    return int.from_bytes(hashlib.sha256(trial.encode()).digest()[:4], "big") & 0x7FFFFFFF


def _zero_costs() -> dict[str, float | None]:
    return {r: 0.0 for r in ROLES}


class TrialRecord(BaseModel):
    """Everything known about one finished attempt."""

    trial_id: str
    suite: str
    task_id: str
    domain: str
    agent: str
    model: str | None
    user: str | None
    repeat: int
    seed: int
    passed: bool
    state_passed: bool
    finish_reason: str | None
    customer_end_reason: str | None = None
    signature: str | None = None
    discrepancies: list[Discrepancy] = Field(default_factory=list)
    rubrics: list[RubricResult] = Field(default_factory=list)
    usage: dict[str, Usage] = Field(default_factory=lambda: {r: Usage() for r in ROLES})
    cost_usd: dict[str, float | None] = Field(default_factory=lambda: _zero_costs())
    timings: dict[str, float] = Field(default_factory=dict)
    effects: dict[str, Any] = Field(default_factory=dict)
    state_hash: str = ""
    expected_hash: str = ""
    task_hash: str = ""
    transcript: Transcript = Field(default_factory=Transcript)

    def total_cost(self) -> float | None:
        values = list(self.cost_usd.values())
        return None if any(v is None for v in values) else sum(v for v in values if v is not None)


class ErrorRecord(BaseModel):
    """An infrastructure failure: not an attempt, retried by --resume (one line of errors.jsonl)."""

    trial_id: str
    suite: str
    task_id: str
    agent: str
    model: str | None
    repeat: int
    kind: str  # model_endpoint | tool_server | statebox_bug
    message: str
    at: str
