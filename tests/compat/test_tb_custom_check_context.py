"""A custom check's `x` is the attempt as the benchmark's harness hands it to a test: the agent's
last reply, its tool calls with their responses, the direct responses of tools that speak, and the
messages, in the harness's shapes (read back in the sandbox by the check itself)."""

from __future__ import annotations

import asyncio
import sys

import pytest

from statebox.agents.transcript import Entry, ToolCallEntry, Transcript
from statebox.compat.thinkingbox import TbCheckout
from statebox.compat.thinkingbox.custom_check import CustomCheckRunner
from statebox.compat.thinkingbox.custom_check_context import ContextSetup, check_context
from statebox.compat.thinkingbox.models import TbAgentSpec, TbBuiltinTool, TbScenario, TbToolRef
from tbfakes import make_fake_checkout, require_isolation

SCENARIO = TbScenario(name="s", tools=[
    TbToolRef(name="store_hours", direct_response="We open at {open}."),
    TbToolRef(name="transfer_to_human_agents", is_end_turn=True),
    TbToolRef(name="get_user"),
])  # fmt: skip
AGENT = TbAgentSpec(system_instructions="You are an agent.",
                    builtin_tools=[TbBuiltinTool(name="report", is_end_turn=True)])  # fmt: skip
SETUP = ContextSetup.of(AGENT, "Policy.", SCENARIO, {t.name: t.name for t in SCENARIO.tools})
TRANSCRIPT = Transcript(entries=[
    Entry(role="customer", content="When do you open? Then get me a human."),
    Entry(role="agent", content="Let me check.", tool_calls=[ToolCallEntry(id="c1", name="store_hours", arguments={})]),
    Entry(role="tool", tool_call_id="c1", tool_name="store_hours", content='{"open": "9:00"}'),
    Entry(role="agent", content="We open at 9. <DONE>"),
    Entry(role="customer", content="A human, please."),
    Entry(role="agent", tool_calls=[ToolCallEntry(id="c2", name="transfer_to_human_agents",
                                                  arguments={"summary": "wants a human"})]),
    Entry(role="tool", tool_call_id="c2", tool_name="transfer_to_human_agents", content='{"status": "ok"}'),
])  # fmt: skip
X = check_context(TRANSCRIPT, {"airline": {"users": {}}}, SETUP)


def test_the_response_is_the_agents_last_text_reply_as_written() -> None:
    assert X["response"] == "We open at 9. <DONE>"


def test_tool_calls_pair_each_call_with_its_response_and_an_end_turn_tool_gets_an_empty_one() -> None:
    pairs = [(c["tool_call"]["name"], c["tool_call"]["arguments"], c["tool_response"]["content"])
             for c in X["tool_calls"]]  # fmt: skip
    assert pairs == [
        ("store_hours", {}, '{"open": "9:00"}'),
        ("transfer_to_human_agents", {"summary": "wants a human"}, ""),
    ]  # fmt: skip


def test_a_tool_with_a_direct_response_speaks_its_filled_template() -> None:
    assert X["tool_direct_responses"] == ["We open at 9:00."]


def test_the_messages_are_the_prompts_the_turns_the_calls_and_the_results_in_order() -> None:
    shown = [(m["T"], m.get("role"), m.get("content"), m["metadata"]) for m in X["messages"]
             if m["T"] != "ParallelToolCall"]  # fmt: skip
    assert shown == [
        ("Text", "system", "You are an agent.", {}),
        ("Text", "system", "Policy.", {}),
        ("Text", "user", "When do you open? Then get me a human.", {}),
        ("Text", "assistant", "Let me check.", {}),
        ("ToolResponse", None, '{"open": "9:00"}', {}),
        ("Text", "assistant", "We open at 9:00.", {"tag": "direct"}),
        ("Text", "assistant", "We open at 9. <DONE>", {"is_done": True}),
        ("Text", "user", "A human, please.", {}),
    ]  # fmt: skip
    calls = [[c["name"] for c in m["tool_calls"]] for m in X["messages"] if m["T"] == "ParallelToolCall"]
    assert calls == [["store_hours"], ["transfer_to_human_agents"]]


def test_the_agent_specs_own_end_turn_tools_end_the_turn_too() -> None:
    assert {"report", "transfer_to_human_agents"} <= SETUP.end_turn


FILE = "shapes.py"
SOURCE = '''# A check reading x the way the benchmark's checks do.
"""!
scenario: sandbox_external_retail
"""


def test_reads_x(x, judge):
    """!
    query: Shapes.
    """
    assert len(x.tool_calls) > 0 and x.tool_calls[-1].tool_call.name == "transfer_to_human_agents"
    assert x.tool_calls[-1].tool_call.arguments.get("summary", "") == "wants a human"
    assert x.tool_calls[0].tool_response.content == '{"open": "9:00"}'
    assert [type(m).__name__ for m in x.messages][:3] == ["Text", "Text", "Text"]
    assert x.messages[-1].tool_calls[0].id == "c2" and x.messages[6].tag == "direct"
    assert x.query() == "When do you open? Then get me a human."
    assert x.transcript(limit=1) == "Assistant: We open at 9. <DONE>\\n\\nUser: A human, please."
    assert x.transcript().startswith("User: When do you open?") and x.transcript().count("Assistant:") == 3
    assert x.effects["airline"] == {"users": {}} and x.tool_direct_responses == ["We open at 9:00."]
'''


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> TbCheckout:
    root = tmp_path_factory.mktemp("shapes") / "checkout"
    make_fake_checkout(root)
    (root / "dataset/test_case" / FILE).write_text(SOURCE, encoding="utf-8")
    return TbCheckout(root)


def test_a_check_reads_x_in_the_harness_shapes_inside_the_sandbox(checkout: TbCheckout) -> None:
    check = checkout.custom_check(f"{FILE}:test_reads_x")
    assert check is not None
    result = asyncio.run(CustomCheckRunner(sys.executable, require_isolation()).run(check, X, None))
    assert result.status == "passed", result.describe()
