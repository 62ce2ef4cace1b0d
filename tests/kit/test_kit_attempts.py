"""Whole attempts on a kit domain: customer actions happen on the customer's side; trace checks fail a hasty agent."""

from __future__ import annotations

import asyncio
from typing import Any

from statebox.agents.base import Agent, AgentTurn, AttemptContext
from statebox.agents.scripted import ReferenceAgent
from statebox.judge import required_effects
from statebox.runner.backend import WorldBackend
from statebox.runner.episode import AttemptPlan, run_attempt
from statebox.runner.record import TrialRecord
from statebox.suites import Suite
from statebox.users.scripted import ScriptedCustomer

TASK = "verified_street_change"


class Hasty(Agent):
    """Asks for the code and the new street, then makes the change without asking to confirm it."""

    name = "hasty"

    def __init__(self, ask_to_confirm: bool) -> None:
        self.ask_to_confirm = ask_to_confirm
        self.step = 0

    async def turn(self, ctx: AttemptContext, customer_message: str) -> AgentTurn:
        self.step += 1
        if self.step == 1:
            await self._call(ctx, "send_verification_code", member_id="MEM-1")
            return AgentTurn("I texted you a code. What is the code, and what is your new street?")
        if self.step == 2:
            code = customer_message.split("code is ")[1][:6]
            await self._call(ctx, "check_verification_code", member_id="MEM-1", code=code)
            if self.ask_to_confirm:
                return AgentTurn("I will change your street to 22 Acacia Avenue. Shall I go ahead?")
        await self._call(ctx, "change_street", member_id="MEM-1", street="22 Acacia Avenue")
        return AgentTurn("Done.", finish_reason="agent_ended")

    async def _call(self, ctx: AttemptContext, tool: str, **args: Any) -> None:
        call_id = f"{tool}-{self.step}"
        ctx.log_call(call_id, tool, args)
        await ctx.call_tool(call_id, tool, args)


def attempt(suite: Suite, agent: Agent) -> TrialRecord:
    task = suite.task(TASK)
    plan = AttemptPlan(suite=suite, task=task, agent=agent, customer=ScriptedCustomer(task.customer), repeat=0,
                       backend=WorldBackend(suite, task, required_effects(suite, task)))
    return asyncio.run(run_attempt(plan))


def test_the_reference_agent_performs_the_customer_s_step_on_their_side_and_passes(suite: Suite) -> None:
    record = attempt(suite, ReferenceAgent(suite.task(TASK).reference))
    assert record.passed, [d.describe() for d in record.discrepancies]


def test_the_right_end_state_without_a_confirmation_fails_as_a_policy_violation(suite: Suite) -> None:
    record = attempt(suite, Hasty(ask_to_confirm=False))
    assert record.state_passed and not record.passed
    assert [d.check for d in record.discrepancies] == ["confirm_before(change_street)"]
    assert record.signature == "policy_violation"


def test_the_same_attempt_with_a_confirmation_the_customer_agreed_to_passes(suite: Suite) -> None:
    record = attempt(suite, Hasty(ask_to_confirm=True))
    assert record.passed, [d.describe() for d in record.discrepancies]
