"""Trajectories for fine-tuning: one finished attempt as an OpenAI chat conversation with tools.

Agent side (system, assistant, tool) and customer side (user) come from the transcript only, so the
customer's private facts appear only where the customer actually said them. A record ends on the
agent's last turn: customer messages after it (the closing "thanks, bye") are dropped, since nothing
is learned from a turn no assistant message answers. Needs no OpenEnv.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from statebox.agents.llm_agent import agent_instructions
from statebox.agents.transcript import Entry, ToolCallEntry
from statebox.runner.record import TrialRecord
from statebox.tasks import Domain
from statebox.tools import ToolSpec

CHAT_SCHEMA_VERSION = 2  # 2: records end on the agent's last turn; `arguments` objects by default
Only = Literal["passed", "failed", "all"]
Arguments = Literal["object", "string"]  # tool-call arguments: an object (HF chat templates) or JSON text (OpenAI)


def wanted(record: TrialRecord, only: Only) -> bool:
    """Whether `--only` keeps the attempt (attempts with a simulator fault are never training data)."""
    if record.simulator_faults:
        return False
    return only == "all" or record.passed == (only == "passed")


def chat_record(record: TrialRecord, domain: Domain | None, arguments: Arguments = "object") -> dict[str, Any]:
    """The attempt in the chat format, with its reward and verdict; `domain` gives the system message and tools."""
    messages: list[dict[str, Any]] = []
    if domain is not None:
        # The system message statebox's LLM agent opens with: its instructions, then the policy.
        messages.append({"role": "system", "content": f"{agent_instructions()}\n\n# Policy\n\n{domain.policy}"})
    messages += [m for e in record.transcript.entries if (m := _message(e, arguments)) is not None]
    messages = ending_on_the_agent(messages)
    return {
        "schema_version": CHAT_SCHEMA_VERSION,
        "trial_id": record.trial_id,
        "suite": record.suite,
        "task_id": record.task_id,
        "domain": record.domain,
        "agent": record.agent,
        "model": record.model,
        "repeat": record.repeat,
        "reward": 1.0 if record.passed else 0.0,
        "verdict": {
            "passed": record.passed,
            "state_passed": record.state_passed,
            "signature": record.signature,
            "finish_reason": record.finish_reason,
            "customer_end_reason": record.customer_end_reason,
            "discrepancies": [d.model_dump() for d in record.discrepancies],
        },
        "messages": messages,
        "tools": [openai_tool(s) for s in domain.tools.specs()] if domain is not None else [],
    }


def openai_tool(spec: ToolSpec) -> dict[str, Any]:
    return {"type": "function", "function": {"name": spec.name, "description": spec.description,
                                             "parameters": spec.input_schema}}


def ending_on_the_agent(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages up to the agent's last turn: trailing `user` messages dropped (a tool result is its turn)."""
    end = len(messages)
    while end > 0 and messages[end - 1]["role"] == "user":
        end -= 1
    return messages[:end]


def _message(e: Entry, arguments: Arguments) -> dict[str, Any] | None:
    if e.role == "customer":
        return {"role": "user", "content": e.content} if e.content else None
    if e.role == "tool":
        return {"role": "tool", "tool_call_id": e.tool_call_id or "", "content": e.content}
    if e.tool_calls:
        calls = [{"id": c.id, "type": "function", "function": {"name": c.name, "arguments": _arguments(c, arguments)}}
                 for c in e.tool_calls]
        return {"role": "assistant", "content": e.content or None, "tool_calls": calls}
    return {"role": "assistant", "content": e.content} if e.content else None


def _arguments(call: ToolCallEntry, form: Arguments) -> dict[str, Any] | str:
    """The call's arguments as an object or as JSON text; text the model sent that is no JSON object stays text."""
    if call.arguments is None and call.raw_arguments is not None:
        return call.raw_arguments
    if form == "object":
        return call.arguments or {}
    return json.dumps(call.arguments or {}, ensure_ascii=False)
