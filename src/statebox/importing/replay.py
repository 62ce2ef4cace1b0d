"""The replaying agent and customer of an import: they play a recorded conversation's steps in order, on
fresh state, through the same tools and episode loop as any attempt, so the judging is what `run` does.

The tool results are the replay's own (the recorded ones are not shown to anyone): the state a
recording's calls leave is what is judged. A recording that stops before its episode ended (no
verdict recorded) ends with the finish reason `cut_off` where its steps run out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from statebox.agents.base import Agent, AgentTurn, AttemptContext
from statebox.agents.transcript import Entry
from statebox.importing.recorded import RecordedAttempt, RecordedStep
from statebox.tools.surface import CustomerActions
from statebox.users.base import CustomerReply, SimulatedCustomer


@dataclass
class Recording:
    """The steps of one recorded attempt, with the place both players have reached."""

    attempt: RecordedAttempt
    at: int = 0
    calls: int = field(default=0)

    def next(self) -> RecordedStep | None:
        if self.at >= len(self.attempt.steps):
            return None
        step = self.attempt.steps[self.at]
        self.at += 1
        return step

    def peek(self) -> RecordedStep | None:
        return self.attempt.steps[self.at] if self.at < len(self.attempt.steps) else None

    @property
    def ending(self) -> str:
        """How the episode ends where the steps run out: as recorded, or cut off."""
        return "agent_ended" if self.attempt.finished else "cut_off"


class ReplayingAgent(Agent):
    """Plays the recording's agent steps up to the customer's next message."""

    name = "imported"

    def __init__(self, recording: Recording, model: str | None) -> None:
        self.recording = recording
        self.model = model

    async def turn(self, ctx: AttemptContext, customer_message: str) -> AgentTurn:
        rec = self.recording
        while (step := rec.peek()) is not None and step.kind != "hear":
            rec.next()
            if step.kind == "say":
                return AgentTurn(step.text, finish_reason=None if rec.peek() is not None else rec.ending)
            call_id = f"replay-{rec.calls}"
            rec.calls += 1
            ctx.log_call(call_id, step.tool, dict(step.arguments), step.raw_arguments)
            outcome = await ctx.call_tool(call_id, step.tool, dict(step.arguments))
            if outcome.ends_episode:
                return AgentTurn("", finish_reason="agent_ended")
        if rec.peek() is None:
            return AgentTurn("", finish_reason=rec.ending)
        return AgentTurn("")  # the customer speaks twice in a row: this turn says nothing


class ReplayingCustomer(SimulatedCustomer):
    """Plays the recording's customer messages; the message the recording marks as the last ends it."""

    name = "replayed"

    def __init__(self, recording: Recording) -> None:
        self.recording = recording

    async def reply(self, visible: list[Entry], actions: CustomerActions | None = None) -> CustomerReply:
        step = self.recording.peek()
        if step is None or step.kind != "hear":
            return CustomerReply("")  # the agent goes on with its next recorded steps
        self.recording.next()
        return CustomerReply(step.text, end_reason="satisfied" if step.ends else None)
