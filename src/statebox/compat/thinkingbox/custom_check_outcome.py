"""A custom-check attempt's state outcome: the effects read from its servers, `x` made from its
transcript, the check run in the sandbox, and what the trial keeps of it."""

from __future__ import annotations

from typing import Any

from statebox.agents.transcript import Transcript
from statebox.compat.thinkingbox.custom_check import CustomCheckResult, CustomCheckRunner
from statebox.compat.thinkingbox.custom_check_context import ContextSetup, check_context
from statebox.compat.thinkingbox.models import CustomCheck
from statebox.compat.thinkingbox.protocol import EFFECTS_TOOL, json_object, result_text
from statebox.judge import Verdict
from statebox.judge.rubrics import RubricJudge
from statebox.mcp.launch import ToolServer
from statebox.runner.backend import StateOutcome


async def read_effects(server: ToolServer) -> dict[str, Any]:
    """One server's entry of `x.effects`: its `__reserved__geteffects` answer as a JSON object, else `{}`."""

    async def call() -> dict[str, Any]:
        return json_object(result_text(await server.session.call_tool(EFFECTS_TOOL, {}))) or {}

    return await server.guard(EFFECTS_TOOL, call)


def not_judged_lines(result: CustomCheckResult) -> list[str]:
    """The outcome's `not_judged` entry for a check that asked questions nobody could answer."""
    n = result.unjudged()
    if result.status != "not_judged":
        return []
    return [f"judge: not_judged: {n} judge(...) question{'s' * (n != 1)} and no judge model (--judge-model)"]


def custom_state_outcome(result: CustomCheckResult, effects: dict[str, Any]) -> StateOutcome:
    """The attempt's verdict (the check's) and what the trial keeps: the check's result, and each
    server's effects keys (the effects themselves can be megabytes)."""
    summary = {
        "custom_check": {**result.model_dump(mode="json"), "summary": result.describe()},
        "servers": {name: {"effects_keys": sorted(value)[:20]} for name, value in effects.items()},
    }
    # unknown without a golden state whether the right outcome changes anything: the check decides
    return StateOutcome(Verdict(passed=result.passed), summary, required_effects=True,
                        not_judged=not_judged_lines(result))  # fmt: skip


async def custom_outcome(
    servers: list[ToolServer],
    check: CustomCheck,
    runner: CustomCheckRunner,
    transcript: Transcript,
    setup: ContextSetup,
    judge: RubricJudge | None,
) -> StateOutcome:
    """Grade an attempt by its custom check over the effects of every server and its transcript."""
    effects = {server.name: await read_effects(server) for server in servers}
    result = await runner.run(check, check_context(transcript, effects, setup), judge)
    return custom_state_outcome(result, effects)
