"""What an importer reads out of a recorded run: per attempt, the task, the conversation's steps, and the verdict
the source recorded. The engine replays the steps on fresh state; the recorded verdict is kept beside statebox's."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from statebox.runner.record import RecordedOutcome
from statebox.runner.taskset import TaskSet

StepKind = Literal["say", "call", "hear"]  # the agent says / calls a tool; the customer says


class RecordedStep(BaseModel):
    """One step of a recorded conversation after the customer's opening."""

    model_config = ConfigDict(frozen=True)

    kind: StepKind
    text: str = ""  # say / hear
    tool: str = ""  # call
    arguments: dict[str, Any] = Field(default_factory=dict)  # call
    raw_arguments: str | None = None  # call: the arguments as the model wrote them
    ends: bool = False  # hear: the customer ended the conversation with this message


class RecordedAttempt(BaseModel):
    """One recorded attempt: which task and repeat, its opening, its steps, and the source's verdict."""

    task_id: str
    repeat: int
    record: int  # its index in the source file (0-based)
    opening: str  # the customer's first message
    steps: list[RecordedStep]
    finished: bool  # False: the recording stops before the episode ended (cut off)
    recorded: RecordedOutcome


@dataclass
class ImportPlan:
    """An importer's reading of one file: the suite the attempts ran on, the attempts, and manifest entries."""

    suite: TaskSet
    attempts: list[RecordedAttempt]
    model: str | None = None  # the recorded agent's model, when the source says
    manifest: dict[str, Any] = field(default_factory=dict)  # the importer's own entries for `imported`
