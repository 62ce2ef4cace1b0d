"""τ-bench's task and trajectory formats as data: what statebox reads of a checkout and of a recorded run."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Domain = Literal["airline", "retail"]
Split = Literal["test", "train", "dev"]
RESPOND = "respond"  # τ-bench's name for "say this to the user" among a task's actions
TERMINATE_TOOLS = frozenset({"transfer_to_human_agents"})  # its environments end the episode on these


class TauAction(BaseModel):
    """One action of a task's solution: a tool and its arguments."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    kwargs: dict[str, Any] = Field(default_factory=dict)


class TauTaskData(BaseModel):
    """One task of a split, as its tasks file writes it (`annotator` is ignored, as τ-bench's own model does)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    user_id: str
    instruction: str
    actions: list[TauAction]
    outputs: list[str] = Field(default_factory=list)

    def same_grading(self, other: TauTaskData) -> bool:
        """Whether both tasks are graded alike: the same actions and outputs (the instruction may be reworded)."""
        return self.actions == other.actions and self.outputs == other.outputs
