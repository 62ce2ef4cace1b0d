"""Agents that need no model: the reference agent (replays the task's solution) and the no-op agent."""

from __future__ import annotations

import json
from typing import Any

from statebox.agents.base import Agent, AgentTurn, AttemptContext
from statebox.tasks import RefCall
from statebox.tasks.references import resolve


class ReferenceAgent(Agent):
    """Replays the reference solution through the same tool path as any agent, then ends."""

    name = "reference"
    converses = False

    def __init__(self, calls: list[RefCall], *, verbatim: bool = False) -> None:
        """`verbatim`: send every call's arguments as written (no `${...}` resolution) and go on
        past calls that fail, as a benchmark that grades by replaying its reference does."""
        self.calls = calls
        self.verbatim = verbatim

    async def turn(self, ctx: AttemptContext, customer_message: str) -> AgentTurn:
        saved: dict[str, Any] = {}
        for i, call in enumerate(self.calls):
            args = call.args if self.verbatim else resolve(call.args, saved)
            if call.actor == "customer":  # the customer's own step, on their side of the attempt
                if ctx.customer is not None:
                    ctx.customer.call(call.tool, dict(args))
                continue
            call_id = f"ref-{i}"
            ctx.log_call(call_id, call.tool, args)
            outcome = await ctx.call_tool(call_id, call.tool, args)
            if outcome.is_error and not self.verbatim:
                return AgentTurn(f"I could not complete your request: {outcome.text}", finish_reason="agent_ended")
            if call.save_as:
                saved[call.save_as] = outcome.data if outcome.data is not None else _parse(outcome.text)
        return AgentTurn("Your request has been handled. Thank you for contacting us.", finish_reason="agent_ended")


class NoopAgent(Agent):
    """Replies once, changes nothing, and ends: the floor every task must be above."""

    name = "noop"

    async def turn(self, ctx: AttemptContext, customer_message: str) -> AgentTurn:
        return AgentTurn("Thank you for reaching out. Have a nice day.", finish_reason="agent_ended")


def _parse(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text
