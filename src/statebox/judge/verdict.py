"""The judge's verdict: passed or not, and every discrepancy in the domain's own words."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

DiscrepancyKind = Literal["wrong_value", "missing_effect", "extra_effect", "policy_violation"]


class Discrepancy(BaseModel):
    """One difference between what the agent changed and what was required."""

    kind: DiscrepancyKind
    table: str
    key: Any = None
    field: str | None = None
    expected: Any = None
    actual: Any = None
    check: str | None = None  # policy_violation: the trace check that was violated
    message_index: int | None = None  # policy_violation: the transcript entry of the offending call

    def describe(self) -> str:
        if self.kind == "policy_violation":
            return f"policy_violation: {self.check}: {self.actual} (entry {self.message_index})"
        where = f"{self.table}[{self.key}]" + (f".{self.field}" if self.field else "")
        return f"{self.kind}: {where}: expected {self.expected!r}, got {self.actual!r}"


class Verdict(BaseModel):
    """The state judge's verdict on one attempt."""

    passed: bool
    discrepancies: list[Discrepancy] = Field(default_factory=list)
    state_hash: str = ""
    expected_hash: str = ""
    matched_alternative: int | None = None  # which acceptable end state matched (0 = the reference)

    def kinds(self) -> set[str]:
        return {d.kind for d in self.discrepancies}
