"""Trace checks: policy rules that leave no trace in the end state, declared as data and checked on the trace.

A small closed set of kinds with parameters, declared by a domain (for all its tasks, in
`trace_checks.yaml`) or by one task (`checks:`). Each is a deterministic predicate over the
attempt's tool calls and visible messages; a violated check fails the attempt.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Check(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    why: str = Field(default="", description="the policy clause the check enforces, for reports")


class _ToolsCheck(_Check):
    """A check on calls of the tools it lists; its name is its kind with the tools (and `_detail()`)."""

    kind: str
    tools: list[str] = Field(min_length=1)

    @property
    def name(self) -> str:
        return f"{self.kind}({', '.join(self.tools)}{self._detail()})"

    def _detail(self) -> str:
        return ""


class ConfirmBefore(_ToolsCheck):
    """A call to these tools only after the agent asked the customer to confirm and the customer agreed."""

    kind: Literal["confirm_before"] = "confirm_before"


class VerifyBefore(_ToolsCheck):
    """A call to these tools only after identity was established in the conversation.

    Established by a successful call of a `verified_by` tool whose result says `"verified": true`,
    or by the customer having stated `min_facts` of the listed private facts (their true values).
    """

    kind: Literal["verify_before"] = "verify_before"
    verified_by: list[str] = Field(default_factory=list)
    facts: list[str] = Field(default_factory=list, description="fact keys that identify the customer")
    min_facts: int = Field(default=2, ge=1)


class ReadBefore(_ToolsCheck):
    """A call to these tools on a record only after the record was read in this attempt.

    The record is the value of argument `arg`; it was read when an earlier successful call of a
    `read_tools` tool had it as an argument value or in its result.
    """

    kind: Literal["read_before"] = "read_before"
    arg: str
    read_tools: list[str] = Field(min_length=1)

    def _detail(self) -> str:
        return f" on {self.arg}"


class Never(_ToolsCheck):
    """Tools the policy forbids in this situation: any call, even a failed one, violates."""

    kind: Literal["never"] = "never"


class AtMost(_Check):
    """A tool called successfully at most `times` times."""

    kind: Literal["at_most"] = "at_most"
    tool: str
    times: int = Field(ge=0)

    @property
    def name(self) -> str:
        return f"at_most({self.tool}, {self.times})"


TraceCheck = Annotated[ConfirmBefore | VerifyBefore | ReadBefore | Never | AtMost, Field(discriminator="kind")]
CHECK_KINDS = ("confirm_before", "verify_before", "read_before", "never", "at_most")


def check_tools(check: TraceCheck) -> list[str]:
    """Every tool a check names (for validation against the domain's tools)."""
    if isinstance(check, AtMost):
        return [check.tool]
    names = list(check.tools)
    if isinstance(check, VerifyBefore):
        names += check.verified_by
    if isinstance(check, ReadBefore):
        names += check.read_tools
    return names
