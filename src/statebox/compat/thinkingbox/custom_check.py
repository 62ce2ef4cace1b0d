"""Custom checks: benchmark test functions that check an attempt with their own Python, run in a
sandboxed process of the servers' Python, never in statebox's process.

The check gets `x` as the benchmark's harness builds it (`custom_check_context`): the agent's last
reply, its tool calls, the messages, and per server the JSON object its `__reserved__geteffects`
answered. Its `judge(...)` questions come back over the sandbox's line-JSON channel
(`custom_check_protocol`) and go to the run's judge model; without one they are recorded and the
verdict is not judged, never an assumed yes. Where it runs is `custom_check_isolation` (bubblewrap,
or the inner layers alone with `--unsafe-custom-checks`). A check that fails or crashes fails the
attempt, naming the task and the line; a check killed by a limit, or a sandbox that breaks its
protocol or cannot start, is an infrastructure error.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from statebox.compat.thinkingbox.custom_check_isolation import (
    Isolation,
    IsolationUnavailable,
    SandboxMode,
    SandboxView,
    bwrap_command,
    direct_command,
    python_view,
)
from statebox.compat.thinkingbox.custom_check_judge import ask_judge
from statebox.compat.thinkingbox.custom_check_protocol import (
    MAX_QUESTIONS,
    SANDBOX_LINE,
    AskedQuestion,
    CheckRequest,
    CheckVerdict,
    JudgeQuestion,
)
from statebox.compat.thinkingbox.custom_check_seccomp import filters_available, inner_filter, outer_filter
from statebox.compat.thinkingbox.models import CustomCheck
from statebox.judge.rubrics import RubricJudge
from statebox.mcp.errors import ToolServerError

LINE_CAP = 1024 * 1024  # bytes of one line from the sandbox
STDERR_CAP = 4096
REAP_S = 5.0  # after the verdict, how long the sandbox may take to exit

CheckStatus = Literal["passed", "failed", "error", "not_judged"]


class CustomCheckResult(BaseModel):
    """A custom check's verdict on one attempt."""

    task_id: str
    status: CheckStatus
    message: str = ""
    line: int | None = None  # the innermost line in the test file where it failed
    function_line: int | None = None  # the line of the test function itself
    source: str = ""  # the test file's text at `line`
    label: str = ""
    questions: list[AskedQuestion] = Field(default_factory=list)  # the judge's, in order
    seconds: float = 0.0
    sandbox: SandboxMode = "bwrap"  # which mode judged it
    seccomp: bool = False  # whether the seccomp filters were installed

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def unjudged(self) -> int:
        """Judge questions asked without a judge model."""
        return sum(q.answer is None for q in self.questions)

    def describe(self) -> str:
        """One line naming the task and, for a failure or crash, the line."""
        if self.status == "passed":
            return f"{self.task_id}: custom check passed"
        if self.status == "not_judged":
            n = self.unjudged()
            return (f"{self.task_id}: custom check not judged: {n} judge(...) question{'s' * (n != 1)} "
                    "and no judge model (--judge-model)")  # fmt: skip
        where = f" at {self.label}:{self.line}" if self.line else ""
        if self.function_line and self.function_line != self.line:
            where += f" (from line {self.function_line} of the test function)"
        verb = "failed" if self.status == "failed" else "crashed"
        return f"{self.task_id}: custom check {verb}{where}: {self.message}"


class CustomCheckInfraError(ToolServerError):
    """The check could not be judged: killed by its time or memory limit, or the sandbox broke."""


@dataclass(frozen=True)
class SandboxLimits:
    """What a custom check may spend (the wall clock counts no time spent waiting for the judge model)."""

    wall_s: float = 20.0
    cpu_s: int = 10
    memory_mb: int = 1024


@dataclass
class CustomCheckRunner:
    """Runs custom checks with one Python, one isolation mode and one set of limits.

    `audit_hook=False` leaves out the innermost layer, so that tests can show the others hold alone."""

    python: str
    isolation: Isolation
    limits: SandboxLimits = field(default_factory=SandboxLimits)
    audit_hook: bool = True
    _views: dict[str, SandboxView] = field(default_factory=dict)  # per checkout, probed once

    async def run(self, check: CustomCheck, context: dict[str, Any], judge: RubricJudge | None) -> CustomCheckResult:
        """The check's verdict on `context` (`x`); a limit hit or a broken sandbox raises `CustomCheckInfraError`."""
        seccomp = filters_available()
        request = CheckRequest(
            file=check.file, label=check.label, function=check.function, data_root=check.data_root, context=context,
            limits={"cpu_s": self.limits.cpu_s, "memory_mb": self.limits.memory_mb}, judge=judge is not None,
            seccomp=inner_filter().hex() if seccomp else None, audit_hook=self.audit_hook,
        )  # fmt: skip
        started = time.monotonic()
        verdict = await _Exchange(self, check, judge).run(request, seccomp)
        result = _result(check, verdict, time.monotonic() - started, self.limits)
        return result.model_copy(update={"sandbox": self.isolation.mode, "seccomp": seccomp})

    async def command(self, check: CustomCheck, seccomp_fd: int | None) -> list[str]:
        if self.isolation.mode == "unsafe" or self.isolation.bwrap is None:
            return direct_command(self.python)
        if check.data_root not in self._views:  # asks the Python and ldd once per checkout, off the event loop
            self._views[check.data_root] = await asyncio.to_thread(python_view, self.python, check.data_root)
        return bwrap_command(self.isolation.bwrap, self._views[check.data_root], self.python, check.data_root,
                             sandbox_env(), seccomp_fd)  # fmt: skip


def sandbox_env() -> dict[str, str]:
    keep = {k: os.environ[k] for k in ("LANG", "LC_ALL", "TZ") if k in os.environ}
    return {**keep, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}


class _Exchange:
    """One run of the sandbox: the request, the questions answered, the verdict read."""

    def __init__(self, runner: CustomCheckRunner, check: CustomCheck, judge: RubricJudge | None) -> None:
        self.runner, self.check, self.judge = runner, check, judge
        self.waited_s = 0.0  # spent waiting for the judge model: not the check's time
        self.asked = 0

    async def run(self, request: CheckRequest, seccomp: bool) -> CheckVerdict | tuple[int | None, bytes]:
        """The verdict, or (exit status, stderr) of a sandbox that ended without one."""
        filter_fd = _filter_pipe(outer_filter()) if seccomp and self.runner.isolation.mode == "bwrap" else None
        try:
            command = await self.runner.command(self.check, filter_fd)
            process = await asyncio.create_subprocess_exec(
                *command, stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=self.check.data_root,
                env=sandbox_env(), start_new_session=True, limit=LINE_CAP,
                pass_fds=(filter_fd,) if filter_fd is not None else (),
            )  # fmt: skip
        except (OSError, IsolationUnavailable) as e:
            raise CustomCheckInfraError(f"{self.check.task_id}: custom check sandbox did not start: {e}") from None
        finally:
            if filter_fd is not None:
                os.close(filter_fd)
        errors = asyncio.ensure_future(_read_capped(process.stderr, STDERR_CAP))
        try:
            verdict = await self._talk(process, request)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), REAP_S)
        finally:
            _kill(process)
            await process.wait()
        stderr = await errors
        return verdict if verdict is not None else (process.returncode, stderr)

    async def _talk(self, process: asyncio.subprocess.Process, request: CheckRequest) -> CheckVerdict | None:
        assert process.stdin is not None and process.stdout is not None
        await _send(process, request.model_dump_json())
        started = time.monotonic()
        while True:
            left = self.runner.limits.wall_s - (time.monotonic() - started - self.waited_s)
            try:
                raw = await asyncio.wait_for(process.stdout.readline(), max(left, 0.001))
            except TimeoutError:
                raise CustomCheckInfraError(f"{self.check.task_id}: custom check killed by the time limit "
                                            f"({self.runner.limits.wall_s:g} s wall clock)") from None  # fmt: skip
            except ValueError:  # a line longer than the cap
                raise self._broken("a line longer than 1 MiB") from None
            if not raw:
                return None
            message = self._parse(raw)
            if isinstance(message, CheckVerdict):
                return message
            await self._answer(process, message)

    def _parse(self, raw: bytes) -> JudgeQuestion | CheckVerdict:
        try:
            return SANDBOX_LINE.validate_json(raw)
        except ValidationError as e:
            raise self._broken(f"a malformed line ({e.errors()[0]['msg']})") from None

    async def _answer(self, process: asyncio.subprocess.Process, question: JudgeQuestion) -> None:
        if self.judge is None:
            raise self._broken("a judge question although it has no judge model")
        self.asked += 1
        if self.asked > MAX_QUESTIONS:  # the sandbox counts too; this holds even if the check writes lines itself
            raise self._broken(f"more than {MAX_QUESTIONS} judge questions")
        asked = time.monotonic()
        answer = await ask_judge(self.judge, question)
        self.waited_s += time.monotonic() - asked
        await _send(process, answer.model_dump_json())

    def _broken(self, what: str) -> CustomCheckInfraError:
        return CustomCheckInfraError(f"{self.check.task_id}: custom check sandbox broke its protocol: {what}")


def _filter_pipe(program: bytes) -> int:
    """A pipe's read end holding the filter (bubblewrap reads it whole from the descriptor)."""
    read, write = os.pipe()
    try:
        os.write(write, program)
    finally:
        os.close(write)
    return read


async def _send(process: asyncio.subprocess.Process, line: str) -> None:
    assert process.stdin is not None
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        process.stdin.write(line.encode() + b"\n")
        await process.stdin.drain()


async def _read_capped(stream: asyncio.StreamReader | None, cap: int) -> bytes:
    kept = bytearray()
    while stream is not None and (chunk := await stream.read(65536)):
        if len(kept) < cap:
            kept += chunk[: cap - len(kept)]
    return bytes(kept)


def _kill(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)


def _result(check: CustomCheck, verdict: CheckVerdict | tuple[int | None, bytes], seconds: float,
            limits: SandboxLimits) -> CustomCheckResult:  # fmt: skip
    if isinstance(verdict, tuple):
        code, err = verdict
        if code in (-signal.SIGXCPU, 128 + signal.SIGXCPU):  # (bubblewrap exits 128 + the signal)
            limit = f"{limits.cpu_s} s CPU"
            raise CustomCheckInfraError(f"{check.task_id}: custom check killed by the time limit ({limit})")
        tail = err.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"exit status {code}"]
        raise CustomCheckInfraError(f"{check.task_id}: custom check sandbox died without a verdict: {tail[0][:300]}")
    if verdict.status == "memory":
        raise CustomCheckInfraError(f"{check.task_id}: custom check hit the memory limit ({limits.memory_mb} MB)")
    unjudged = any(q.answer is None for q in verdict.questions)
    return CustomCheckResult(
        task_id=check.task_id, status="not_judged" if unjudged else verdict.status, message=verdict.message,
        line=verdict.line, function_line=verdict.function_line, source=verdict.source, label=check.label,
        questions=verdict.questions,
        seconds=round(seconds, 4),
    )  # fmt: skip
