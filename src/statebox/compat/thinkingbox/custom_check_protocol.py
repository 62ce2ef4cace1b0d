"""The line-JSON protocol between statebox and a custom check's sandboxed process, as the parent
reads it: each line the sandbox writes is validated here before anything acts on it.

One request line in (`CheckRequest`); then, as the check runs, `JudgeQuestion` lines out, each
answered by a `JudgeAnswer` line in; last, one `CheckVerdict` line out. The sandbox script
(`custom_check_sandbox.py`, standard library only) writes the same fields.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

PROTOCOL_VERSION = 1
MAX_QUESTIONS = 50  # judge questions one check may ask (each is a model call)
TEXT_CAP = 100_000  # characters of one judge argument

JudgeMethod = Literal["text_yesno", "compare_yesno", "yesno", "evaluate_bool"]
SandboxStatus = Literal["passed", "failed", "error", "memory"]


class _Line(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CheckRequest(_Line):
    """What the sandbox is asked to run, and on what."""

    version: int = PROTOCOL_VERSION
    file: str  # the test file, as the sandbox sees it
    label: str  # the test file relative to the checkout, as messages name it
    function: str
    data_root: str
    context: dict[str, Any]  # `x`, in the shapes of `custom_check_shapes`
    limits: dict[str, int]
    judge: bool  # True: questions are sent to the parent; False: recorded, provisionally yes
    max_questions: int = MAX_QUESTIONS
    seccomp: str | None = None  # hex of the filter the sandbox installs before the check (None: none)
    audit_hook: bool = True


class JudgeQuestion(_Line):
    kind: Literal["question"]
    id: int = Field(ge=1)
    method: JudgeMethod
    args: dict[str, Annotated[str, Field(max_length=TEXT_CAP)]]


class JudgeAnswer(_Line):
    kind: Literal["answer"] = "answer"
    id: int
    answer: bool
    reason: str = ""


class AskedQuestion(_Line):
    """One judge question as the trial records it; `answer` None: not judged (no judge model)."""

    method: JudgeMethod
    args: dict[str, str]
    answer: bool | None
    reason: str = ""


class CheckVerdict(_Line):
    kind: Literal["verdict"]
    status: SandboxStatus
    message: str = ""
    line: int | None = None
    function_line: int | None = None
    source: str = ""  # the test file's text at `line`
    questions: list[AskedQuestion] = Field(default_factory=list)


SandboxLine = Annotated[JudgeQuestion | CheckVerdict, Field(discriminator="kind")]
SANDBOX_LINE: TypeAdapter[JudgeQuestion | CheckVerdict] = TypeAdapter(SandboxLine)
