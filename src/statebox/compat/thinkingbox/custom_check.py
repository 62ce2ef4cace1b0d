"""Custom checks: benchmark test functions that check the end state with their own Python over
`x.effects`, run in a sandboxed subprocess of the servers' Python, never in statebox's process.

`x.effects` is what the benchmark's own harness builds: for each of the task's servers, the JSON
object its `__reserved__geteffects` answered (`{}` when the answer is not a JSON object). The
check gets those effects on stdin and the checkout to read; it runs in its own process, without
network (`unshare -rn` where it works, and an audit hook refusing sockets, processes and file
writes in any case), under a wall-clock and a CPU limit and an address-space limit (see
`custom_check_sandbox`). A check that fails or crashes fails the attempt, naming the task and the
line; a check killed by a limit, or a sandbox that cannot start, is an infrastructure error.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from statebox.compat.thinkingbox.models import CustomCheck
from statebox.compat.thinkingbox.protocol import EFFECTS_TOOL, json_object, result_text
from statebox.judge import Verdict
from statebox.mcp.errors import ToolServerError
from statebox.mcp.launch import ToolServer
from statebox.runner.backend import StateOutcome

SANDBOX_SCRIPT = Path(__file__).with_name("custom_check_sandbox.py")
RESULT_CAP = 1024 * 1024  # bytes of the result channel kept
STDERR_CAP = 4096

CheckStatus = Literal["passed", "failed", "error"]
UNSHARE = "unshare"
ISOLATED = "unshare -rn + audit hook"
HOOK_ONLY = "audit hook"  # where user namespaces are not allowed


class CustomCheckResult(BaseModel):
    """A custom check's verdict on one attempt's effects."""

    task_id: str
    status: CheckStatus
    message: str = ""
    line: int | None = None  # the innermost line in the test file where it failed
    function_line: int | None = None  # the line of the test function itself
    label: str = ""
    judge_calls: list[dict[str, Any]] = Field(default_factory=list)  # asked, answered yes: not judged
    seconds: float = 0.0
    isolation: str = ""  # how the sandbox kept the check off the network: ISOLATED or HOOK_ONLY

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def describe(self) -> str:
        """One line naming the task and, for a failure or crash, the line."""
        if self.passed:
            return f"{self.task_id}: custom check passed"
        where = f" at {self.label}:{self.line}" if self.line else ""
        if self.function_line and self.function_line != self.line:
            where += f" (from line {self.function_line} of the test function)"
        verb = "failed" if self.status == "failed" else "crashed"
        return f"{self.task_id}: custom check {verb}{where}: {self.message}"


class CustomCheckInfraError(ToolServerError):
    """The check could not be judged: killed by its time or memory limit, or the sandbox broke."""


@dataclass(frozen=True)
class SandboxLimits:
    """What a custom check may spend."""

    wall_s: float = 20.0
    cpu_s: int = 10
    memory_mb: int = 1024


class CustomCheckRunner:
    """Runs custom checks with one Python and one set of limits, inside `unshare -rn` (its own user
    and network namespace) where the system allows it, else with the audit hook alone."""

    def __init__(self, python: str, limits: SandboxLimits | None = None, unshare: str | None = UNSHARE) -> None:
        self.python = os.path.abspath(python) if os.sep in python else (shutil.which(python) or python)
        self.limits = limits or SandboxLimits()
        self.unshare = shutil.which(unshare) if unshare else None

    def command(self, isolated: bool) -> list[str]:
        prefix = [self.unshare, "-rn"] if isolated and self.unshare else []
        return [*prefix, self.python, "-I", "-X", "utf8", str(SANDBOX_SCRIPT)]

    async def run(self, check: CustomCheck, effects: dict[str, Any]) -> CustomCheckResult:
        """The check's verdict on `effects`; a limit hit or a broken sandbox raises `CustomCheckInfraError`."""
        request = json.dumps({
            "file": check.file, "label": check.label, "function": check.function, "data_root": check.data_root,
            "effects": effects, "limits": {"cpu_s": self.limits.cpu_s, "memory_mb": self.limits.memory_mb},
        }).encode()  # fmt: skip
        started = time.monotonic()
        isolated = self.unshare is not None
        code, out, err = await self._exchange(check, request, isolated)
        if isolated and code == 1 and not out and err.startswith(b"unshare:"):  # no namespaces here
            isolated = False
            code, out, err = await self._exchange(check, request, isolated)
        result = _result(check, code, out, err, time.monotonic() - started, self.limits)
        return result.model_copy(update={"isolation": ISOLATED if isolated else HOOK_ONLY})

    async def _exchange(self, check: CustomCheck, request: bytes, isolated: bool) -> tuple[int | None, bytes, bytes]:
        try:
            process = await asyncio.create_subprocess_exec(
                *self.command(isolated), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE, cwd=check.data_root, env=_sandbox_env(), start_new_session=True,
            )  # fmt: skip
        except OSError as e:
            raise CustomCheckInfraError(f"{check.task_id}: custom check sandbox did not start: {e}") from None
        try:
            out, err = await asyncio.wait_for(_talk(process, request), self.limits.wall_s)
        except TimeoutError:
            _kill(process)
            await process.wait()
            raise CustomCheckInfraError(
                f"{check.task_id}: custom check killed by the time limit ({self.limits.wall_s:g} s wall clock)"
            ) from None
        finally:
            _kill(process)
        return process.returncode, out, err


def _sandbox_env() -> dict[str, str]:
    keep = {k: os.environ[k] for k in ("PATH", "LANG", "LC_ALL", "TZ") if k in os.environ}
    return {**keep, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}


async def _talk(process: asyncio.subprocess.Process, request: bytes) -> tuple[bytes, bytes]:
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        process.stdin.write(request)
        await process.stdin.drain()
        process.stdin.close()
    out, err = await asyncio.gather(_read_capped(process.stdout, RESULT_CAP), _read_capped(process.stderr, STDERR_CAP))
    await process.wait()
    return out, err


async def _read_capped(stream: asyncio.StreamReader, cap: int) -> bytes:
    kept = bytearray()
    while chunk := await stream.read(65536):
        if len(kept) < cap:
            kept += chunk[: cap - len(kept)]
    return bytes(kept)


def _kill(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)


def _result(check: CustomCheck, code: int | None, out: bytes, err: bytes, seconds: float,
            limits: SandboxLimits) -> CustomCheckResult:  # fmt: skip
    lines = out.decode("utf-8", "replace").strip().splitlines()
    answer = json_object(lines[-1]) if lines else None
    if code == -signal.SIGXCPU:
        raise CustomCheckInfraError(f"{check.task_id}: custom check killed by the time limit ({limits.cpu_s} s CPU)")
    if answer is None or code != 0:
        tail = err.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"exit status {code}"]
        raise CustomCheckInfraError(f"{check.task_id}: custom check sandbox died without a verdict: {tail[0][:300]}")
    if answer.get("status") == "memory":
        raise CustomCheckInfraError(f"{check.task_id}: custom check hit the memory limit ({limits.memory_mb} MB)")
    status = answer.get("status")
    if status not in ("passed", "failed", "error"):
        raise CustomCheckInfraError(f"{check.task_id}: custom check sandbox answered an unknown status {status!r}")
    return CustomCheckResult(
        task_id=check.task_id, status=status, message=str(answer.get("message") or ""), line=answer.get("line"),
        function_line=answer.get("function_line"), label=check.label,
        judge_calls=list(answer.get("judge_calls") or []), seconds=round(seconds, 4),
    )  # fmt: skip


def custom_verdict(result: CustomCheckResult, effects: dict[str, Any]) -> tuple[Verdict, dict[str, Any]]:
    """The attempt's verdict (the check's) and what the trial keeps: the check's result, each
    server's effects size (the effects themselves can be megabytes)."""
    summary = {
        "custom_check": {**result.model_dump(mode="json"), "summary": result.describe()},
        "servers": {name: {"effects_keys": sorted(value)[:20]} for name, value in effects.items()},
    }
    return Verdict(passed=result.passed), summary


async def read_effects(server: ToolServer) -> dict[str, Any]:
    """One server's entry of `x.effects`: its `__reserved__geteffects` answer as a JSON object, else `{}`."""

    async def call() -> dict[str, Any]:
        return json_object(result_text(await server.session.call_tool(EFFECTS_TOOL, {}))) or {}

    return await server.guard(EFFECTS_TOOL, call)


async def custom_outcome(servers: list[ToolServer], check: CustomCheck, python: str) -> StateOutcome:
    """Grade an attempt by its custom check over the effects of every server of the attempt."""
    effects = {server.name: await read_effects(server) for server in servers}
    result = await CustomCheckRunner(python).run(check, effects)
    verdict, summary = custom_verdict(result, effects)
    return StateOutcome(verdict, summary, required_effects=True)  # unknown without a golden state: the check decides
