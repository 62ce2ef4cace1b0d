"""Well-behaved attempts on the proxy, played while it is under attack: each must get the right verdict."""

from __future__ import annotations

import functools
import json
from typing import Any

import httpx
import mcp_types as types
from mcp import Client

from statebox.suites import load_suite
from statebox.tasks import RefCall, Task
from statebox.tasks.references import resolve

TASK = "defective_blender_replacement_gold"  # replaying its reference passes; a wrong ticket priority fails


@functools.cache
def task() -> Task:
    """Loaded once: loading the suite blocks the event loop every flood shares with the well-behaved attempts."""
    return load_suite("retail").task(TASK)


def with_wrong_priority(calls: list[RefCall]) -> list[RefCall]:
    return [c.model_copy(update={"args": {**c.args, "priority": "urgent"}}) if c.tool == "create_ticket" else c
            for c in calls]


async def replay(mcp_url: str, calls: list[RefCall]) -> None:
    """The calls as an agent makes them, `${name.field}` resolved from earlier results."""
    saved: dict[str, Any] = {}
    async with Client(mcp_url) as client:
        for call in calls:
            if call.actor == "customer":
                continue
            result = await client.call_tool(call.tool, resolve(call.args, saved))
            text = "\n".join(b.text for b in result.content if isinstance(b, types.TextContent))
            assert not result.is_error, f"{call.tool}: {text}"
            if call.save_as:
                saved[call.save_as] = json.loads(text)


async def wrong_verdict(operator: httpx.AsyncClient, honest: bool) -> str | None:
    """Play one attempt (the reference, or it with a wrong write); a description of a wrong verdict, or None."""
    created = await operator.post("/attempts", json={"suite": "retail", "task": TASK, "user": None})
    if created.status_code != 201:
        return f"creating a well-behaved attempt: {created.status_code} {created.text}"
    body = created.json()
    calls = list(task().reference)
    await replay(body["mcp_url"], calls if honest else with_wrong_priority(calls))
    verdict = (await operator.get(f"/attempts/{body['id']}/effects")).json()["verdict"]
    await operator.delete(f"/attempts/{body['id']}")
    # These attempts replay calls without talking to the customer, so the trace checks fail them alike (the one
    # verdict: tests/verdict); what the floods must not disturb is the end state's verdict.
    wrong = [(d["kind"], d["field"]) for d in verdict["discrepancies"] if d["kind"] != "policy_violation"]
    if not any(d["kind"] == "policy_violation" for d in verdict["discrepancies"]) or verdict["passed"]:
        return f"a replay that never verified the customer was not failed on the trace: {verdict}"
    if honest and (verdict["state_passed"], wrong) != (True, []):
        return f"the reference failed: {verdict}"
    if not honest and (verdict["state_passed"], wrong) != (False, [("wrong_value", "priority")]):
        return f"a wrong priority was not caught alone: {verdict}"
    return None
