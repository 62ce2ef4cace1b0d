"""A custom check's `x`, made from the attempt's transcript in the shapes the benchmark's harness
gives its checks (the sandbox reads it with `custom_check_shapes`).

- `messages`: the agent prompt and the policy (system), the customer's messages (user), the
  agent's text replies (assistant, `is_done` when they end with `<DONE>`), its tool calls (one
  `ParallelToolCall` per model reply), the tool results, and after a result of a tool whose
  scenario entry has a `direct_response` template, that text (assistant, tag `direct`);
- `tool_calls`: every call with its response, in order; an end-turn tool's response is empty and
  is not among the messages (the harness never sends it to a server);
- `response`: the agent's last text reply (as written, `<DONE>` included); `effects`: per server.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from statebox.agents.transcript import Entry, Transcript
from statebox.compat.thinkingbox.models import TbAgentSpec, TbScenario

DONE_MARKER = "<DONE>"


@dataclass(frozen=True)
class ContextSetup:
    """What of the attempt's setup shows in `x`: the system prompts and which tools end the turn or speak."""

    system: list[str]  # the agent prompt, then the policy (left out when empty)
    end_turn: frozenset[str]  # tool names (as the agent calls them) that end the turn
    direct: dict[str, str]  # tool name -> its direct-response template

    @classmethod
    def of(cls, agent: TbAgentSpec, policy: str, scenario: TbScenario, exposed: dict[str, str]) -> ContextSetup:
        """`exposed`: the agent's name for each tool -> the scenario's name for it."""
        refs = {name: scenario.tool(tool) for name, tool in exposed.items()}
        end_turn = {name for name, ref in refs.items() if ref is not None and ref.is_end_turn}
        end_turn |= {tool.name for tool in agent.builtin_tools if tool.is_end_turn}
        direct = {name: ref.direct_response for name, ref in refs.items()
                  if ref is not None and isinstance(ref.direct_response, str)}  # fmt: skip
        system = [text for text in (agent.system_instructions, policy) if text]
        return cls(system, frozenset(end_turn), direct)


def check_context(transcript: Transcript, effects: dict[str, Any], setup: ContextSetup) -> dict[str, Any]:
    """`x` as JSON: response, tool calls, direct responses, messages, effects."""
    results = {e.tool_call_id: e for e in transcript.tool_results() if e.tool_call_id is not None}
    messages: list[dict[str, Any]] = [_text("system", text) for text in setup.system]
    calls: list[dict[str, Any]] = []
    direct: list[str] = []
    for entry in transcript.entries:
        if entry.role == "customer" and entry.content:
            messages.append(_text("user", entry.content))
        elif entry.role == "agent":
            messages += _agent_messages(entry, setup, results, calls, direct)
    replies = [m["content"] for m in messages if m["T"] == "Text" and m["role"] == "assistant"
               and m["metadata"].get("tag", "text") == "text"]  # fmt: skip
    return {"response": replies[-1] if replies else "", "tool_direct_responses": direct, "effects": effects,
            "tool_calls": calls, "messages": messages}  # fmt: skip


def _agent_messages(
    entry: Entry, setup: ContextSetup, results: dict[str, Entry], calls: list[dict[str, Any]], direct: list[str]
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if entry.content:
        done = entry.content.rstrip().endswith(DONE_MARKER)
        out.append(_text("assistant", entry.content, {"is_done": True} if done and not entry.tool_calls else {}))
    if not entry.tool_calls:
        return out
    made: list[dict[str, Any]] = [
        {"T": "ToolCall", "name": c.name, "arguments": c.arguments or {}, "id": c.id, "metadata": {}}
        for c in entry.tool_calls
    ]
    out.append({"T": "ParallelToolCall", "tool_calls": made, "metadata": {}})
    for call in made:
        ends = call["name"] in setup.end_turn
        result = results.get(call["id"])
        content = "" if ends or result is None else result.content
        response = {"T": "ToolResponse", "name": call["name"], "content": content, "id": call["id"], "metadata": {}}
        calls.append({"tool_call": call, "tool_response": response})
        if ends or result is None:
            continue
        out.append(response)
        said = _direct_response(setup.direct.get(call["name"]), content)
        if said is not None:
            direct.append(said)
            out.append(_text("assistant", said, {"tag": "direct"}))
    return out


def _direct_response(template: str | None, content: str) -> str | None:
    """The template filled with the tool's JSON result, as the harness shows it; None when it cannot be."""
    if template is None:
        return None
    try:
        fields = json.loads(content)
        return template.format(**fields) if isinstance(fields, dict) else None
    except (ValueError, KeyError, IndexError, AttributeError):
        return None


def _text(role: str, content: str, metadata: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"T": "Text", "role": role, "content": content, "metadata": metadata or {}}
