"""The Task model: a customer goal, its private facts, the initial state and the reference solution."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from statebox.tasks.checks import TraceCheck


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CustomerAction(Strict):
    """Something only the customer can do, on the attempt's own state (read a text, upload a document)."""

    tool: str = Field(description="one of the domain's customer tools")
    args: dict[str, Any] = Field(default_factory=dict)


class Fact(Strict):
    """A private fact the customer releases only when asked, with the words that ask for it.

    With `via`, the customer first performs that action (e.g. reads the code just texted to them);
    if the action fails (nothing was sent yet), they say so instead of stating the value.
    """

    key: str
    value: str
    asked_by: list[str] = Field(min_length=1, description="phrases that ask for this fact")
    via: CustomerAction | None = None


class Customer(Strict):
    """The simulated customer: who they are, what they want, what they know."""

    goal: str
    persona: str = ""
    facts: list[Fact] = Field(default_factory=list)
    rules: list[str] = Field(default_factory=list)
    confirms: list[str] = Field(
        default_factory=list, description="requests the customer says yes to when asked to confirm"
    )
    may_end_satisfied: bool = Field(
        default=True,
        description="false when the request cannot be met: a customer ending as satisfied is a simulator fault",
    )


class RefCall(Strict):
    """One reference tool call. String arguments may use ${name.field} to refer to earlier results.

    `actor: customer` marks what the customer does at that point (a customer tool, e.g. an upload).
    """

    tool: str
    args: dict[str, Any] = Field(default_factory=dict)
    save_as: str | None = None
    actor: Literal["agent", "customer"] = "agent"


class Expectation(Strict):
    """Overrides of the default judging: fields not to judge, and other acceptable end states."""

    ignore_fields: list[str] = Field(default_factory=list, description="'table.field' entries")
    alternatives: list[list[RefCall]] = Field(default_factory=list)

    @field_validator("ignore_fields")
    @classmethod
    def _table_dot_field(cls, v: list[str]) -> list[str]:
        bad = [x for x in v if x.count(".") != 1]
        if bad:
            raise ValueError(f"expected 'table.field', got {bad}")
        return v


class Rubric(Strict):
    """A yes/no question on what the agent told the customer, judged by a model.

    `judged_on` narrows it to the agent's final reply where that is the point; by default it is judged
    on the suite's rule (built-in suites: everything the agent said to the customer).
    """

    question: str
    judged_on: Literal["conversation", "final_reply"] | None = None  # not `on`: YAML reads that as true


class Limits(Strict):
    max_turns: int = Field(default=12, ge=1)
    max_steps_per_turn: int = Field(default=25, ge=1)
    max_tool_errors: int = Field(default=5, ge=1, description="consecutive tool errors before giving up")


class Task(Strict):
    """One task of a suite. The YAML format mirrors these fields."""

    id: str
    domain: str
    title: str = ""
    opening_message: str
    customer: Customer
    now: datetime | None = None
    initial_rows: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    reference: list[RefCall] = Field(default_factory=list)
    expect: Expectation = Field(default_factory=Expectation)
    rubrics: list[str | Rubric] = Field(default_factory=list)
    limits: Limits = Field(default_factory=Limits)
    tags: list[str] = Field(default_factory=list)
    read_only: bool = False
    checks: list[TraceCheck] = Field(default_factory=list, description="trace checks (the domain's are added)")
    policy_sections: list[Annotated[int, Field(ge=1)]] = Field(
        default_factory=list,
        description="the policy sections whose rules decide this task's end state (not the ones every task follows)",
    )
    verification_not_required: str = Field(
        default="",
        description="where the policy lets this task's writes go unverified: the clause and why (e.g. a caller who "
        "cannot verify is handed off)",
    )

    def asks_judge_model(self) -> bool:
        """Whether judging an attempt may ask the judge model: its rubrics (a suite's own checks may too)."""
        return bool(self.rubrics)

    def rubric_questions(self) -> list[Rubric]:
        """The rubrics as Rubric objects (a plain string is a question on the suite's rule)."""
        return [r if isinstance(r, Rubric) else Rubric(question=r) for r in self.rubrics]

    def content_hash(self) -> str:
        """A hash of everything that defines the task."""
        blob = json.dumps(_without_later_defaults(self.model_dump(mode="json")), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


# Fields added after run directories existed, with the value that means "as before": left out of
# the content hash at that value, so a task that does not use them keeps the hash its runs recorded.
_LATER_DEFAULTS: dict[str, Any] = {"via": None, "actor": "agent", "checks": [], "may_end_satisfied": True,
                                   "policy_sections": [], "verification_not_required": ""}


def _without_later_defaults(node: Any) -> Any:
    if isinstance(node, dict):
        return {
            k: _without_later_defaults(v)
            for k, v in node.items()
            if not (k in _LATER_DEFAULTS and v == _LATER_DEFAULTS[k])
        }
    if isinstance(node, list):
        return [_without_later_defaults(v) for v in node]
    return node
