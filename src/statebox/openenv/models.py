"""The OpenEnv wire types: one action (a tool call, a message, or the end), one observation, the state."""

from __future__ import annotations

from typing import Any, Literal

from openenv.core import Action, Observation, State
from pydantic import Field, model_validator

ObservationKind = Literal["start", "tool_result", "customer", "end"]
RewardKind = Literal["binary", "shaped"]


class StateboxAction(Action):
    """A tool call (`tool`, `arguments`), a message to the customer (`message`), or the end (`end`).

    `end` with a `message` says it to the customer and ends the episode without waiting for an answer.
    """

    tool: str | None = Field(default=None, description="the tool to call")
    arguments: dict[str, Any] = Field(default_factory=dict, description="the tool call's arguments")
    message: str | None = Field(default=None, description="a message to the customer")
    end: bool = Field(default=False, description="the agent ends the episode")

    @model_validator(mode="after")
    def _one_thing(self) -> StateboxAction:
        if self.tool is not None and (self.message is not None or self.end):
            raise ValueError("an action is a tool call, a message or the end, not several")
        if self.tool is None and self.message is None and not self.end:
            raise ValueError("an action needs a tool, a message or end: true")
        return self


class StateboxObservation(Observation):
    """What the agent sees after a reset or a step.

    On the final observation `reward` is 1.0 (passed) or 0.0 (failed), as `statebox run` judges;
    `info` carries the verdict, typed discrepancies and the failure signature (OpenEnv's own
    `metadata` is not sent over the wire, so the verdict travels in `info`, and in `metadata` in process).
    """

    kind: ObservationKind
    text: str = Field(default="", description="the customer's message, or the tool's result")
    is_error: bool = False
    error_kind: str | None = None
    task_id: str = ""
    domain: str = ""
    policy: str | None = Field(default=None, description="the domain's policy (on reset)")
    tools: list[dict[str, Any]] = Field(default_factory=list, description="the tools' JSON Schemas (on reset)")
    reward_kind: RewardKind = "binary"
    info: dict[str, Any] = Field(default_factory=dict, description="on the final observation: the verdict")


class StateboxState(State):
    """The episode as the server sees it."""

    suite: str = ""
    task_id: str | None = None
    split: str | None = None
    done: bool = False
    finish_reason: str | None = None
    entries: int = 0
