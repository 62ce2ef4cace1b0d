"""The environment in process: splits, seeded resets, limits, who ends an episode, the shaped reward."""

from __future__ import annotations

import asyncio
import json

import pytest
from openenv_play import ASK_TO_CONFIRM
from pydantic import ValidationError

from statebox.openenv.environment import StateboxEnvironment
from statebox.openenv.models import StateboxAction, StateboxObservation
from statebox.openenv.source import EpisodeSource, UnknownTask
from statebox.openenv.splits import TEST_PERCENT, split_of
from statebox.suites import Suite, load_suite
from statebox.tasks import Task
from statebox.tasks.references import resolve

TASK = "air_purifier_return_refund_wrong_rma_number"


@pytest.fixture(scope="module")
def retail() -> Suite:
    return load_suite("retail")


def _task(suite: Suite, task_id: str = TASK) -> Task:
    return next(t for t in suite.tasks if t.id == task_id)


def _play(env: StateboxEnvironment, actions: list[StateboxAction]) -> StateboxObservation:
    async def go() -> StateboxObservation:
        obs = await env.reset_async(task_id=TASK)
        for action in actions:
            obs = await env.step_async(action)
        return obs

    return asyncio.run(go())


def _reference_with_refund(task: Task, amount: float) -> list[StateboxAction]:
    """The reference of TASK after asking for the facts and confirming, with the refund's amount replaced."""
    asks = " ".join(f"What is your {f.asked_by[0]}?" for f in task.customer.facts)
    actions = [StateboxAction(message=asks), StateboxAction(message=ASK_TO_CONFIRM)]
    ticket = {"ticket_id": "TCK-50001"}  # the first ticket of a fresh session
    for call in task.reference:
        args = resolve(call.args, {"ticket": ticket})
        actions.append(StateboxAction(tool=call.tool, arguments={**args, "amount": amount}
                                      if call.tool == "issue_refund" else args))
    return [*actions, StateboxAction(end=True)]


def test_a_tasks_split_is_a_stable_hash_of_its_id_at_a_fixed_ratio(retail: Suite) -> None:
    ids = [t.id for t in retail.tasks]
    test = [i for i in ids if split_of(i) == "test"]
    assert [split_of(i) for i in ids] == [split_of(i) for i in ids]
    assert split_of("air_purifier_return_refund_wrong_rma_number") == split_of(TASK)
    assert 0.5 * TEST_PERCENT / 100 < len(test) / len(ids) < 1.5 * TEST_PERCENT / 100, (len(test), len(ids))


def test_a_train_server_never_hands_out_a_test_task(retail: Suite) -> None:
    source = EpisodeSource(retail, split="train")
    test_task = next(t.id for t in retail.tasks if split_of(t.id) == "test")
    with pytest.raises(UnknownTask, match="test split"):
        source.choose(test_task, None)
    chosen = {source.choose(None, seed).id for seed in range(200)}
    assert chosen and all(split_of(t) == "train" for t in chosen), chosen


def test_the_same_seed_resets_to_the_same_task(retail: Suite) -> None:
    source = EpisodeSource(retail)
    assert source.choose(None, 7).id == source.choose(None, 7).id
    assert len({source.choose(None, s).id for s in range(50)}) > 10


def test_an_unknown_task_is_refused_by_name(retail: Suite) -> None:
    with pytest.raises(UnknownTask, match="no task 'nope'"):
        EpisodeSource(retail).choose("nope", None)


def test_an_action_is_one_thing() -> None:
    with pytest.raises(ValidationError, match="not several"):
        StateboxAction(tool="get_order", message="hello")
    with pytest.raises(ValidationError, match="needs a tool"):
        StateboxAction()


def test_the_customer_ends_the_episode_when_told_without_a_question(retail: Suite) -> None:
    obs = _play(StateboxEnvironment(EpisodeSource(retail)), [StateboxAction(message="All done, goodbye.")])
    assert (obs.kind, obs.done, obs.reward) == ("end", True, 0.0)
    assert (obs.info["finish_reason"], obs.info["customer_end_reason"]) == ("customer_ended", "satisfied")
    assert obs.info["signature"] == "no_state_change", obs.info


def test_consecutive_tool_errors_end_the_episode_as_tool_usage(retail: Suite) -> None:
    limit = _task(retail).limits.max_tool_errors
    bad = [StateboxAction(tool="get_order", arguments={"order_id": "ORD-0"})] * limit
    obs = _play(StateboxEnvironment(EpisodeSource(retail)), bad)
    assert (obs.done, obs.info["finish_reason"], obs.info["signature"]) == (True, "max_tool_errors", "tool_usage")


def test_the_shaped_reward_is_asked_for_labelled_and_below_a_pass(retail: Suite) -> None:
    task = _task(retail)
    shaped = StateboxEnvironment(EpisodeSource(retail, shaped=True))
    wrong = _play(shaped, _reference_with_refund(task, 168.60))
    assert wrong.reward_kind == "shaped" and wrong.info["passed"] is False
    assert wrong.reward is not None and 0.0 < wrong.reward < 1.0, wrong.info
    assert wrong.info["reward"] == 0.0, "the binary reward stays in info"
    right = _play(StateboxEnvironment(EpisodeSource(retail, shaped=True)), _reference_with_refund(task, 160.65))
    assert (right.reward, right.info["passed"]) == (1.0, True), right.info["discrepancies"]
    plain = _play(StateboxEnvironment(EpisodeSource(retail)), _reference_with_refund(task, 168.60))
    assert (plain.reward_kind, plain.reward, plain.info["shaped_reward"]) == ("binary", 0.0, None)


def test_the_conversation_tools_say_and_end_as_the_message_and_end_actions_do(retail: Suite) -> None:
    env = StateboxEnvironment(EpisodeSource(retail))

    async def go() -> tuple[StateboxObservation, StateboxObservation, StateboxObservation]:
        start = await env.reset_async(task_id=TASK)
        bad = await env.step_async(StateboxAction(tool="reply_to_customer", arguments={"message": 3}))
        ask = StateboxAction(tool="reply_to_customer", arguments={"message": "What is your email?"})
        said = await env.step_async(ask)
        assert (bad.kind, bad.is_error, bad.error_kind) == ("tool_result", True, "invalid_arguments"), bad.text
        assert (said.kind, said.is_error) == ("customer", False) and "@" in said.text, said.text
        ended = await env.step_async(StateboxAction(tool="end_episode", arguments={"message": None}))
        return start, said, ended

    start, _, ended = asyncio.run(go())
    names = [t["name"] for t in start.tools]
    assert names[-2:] == ["reply_to_customer", "end_episode"], names
    assert [t["function"]["name"] for t in start.openai_tools] == names
    assert start.metadata == {"task_id": TASK, "domain": "retail", "opening_message": start.text,
                              "policy": start.policy}
    assert (ended.kind, ended.done, ended.reward, ended.metadata["finish_reason"]) == ("end", True, 0.0, "agent_ended")
    assert ended.info == ended.metadata and ended.metadata["signature"] == "no_state_change"


def test_mcp_actions_list_without_a_step_and_call_with_a_call_tool_result(retail: Suite) -> None:
    env = StateboxEnvironment(EpisodeSource(retail))

    async def go() -> None:
        await env.reset_async(task_id=TASK)
        listed = await env.step_async(StateboxAction.model_validate({"type": "list_tools"}))
        assert env.state.step_count == 0, "listing is no step of the episode"
        assert {t.name for t in listed.tools} >= {"find_customer", "end_episode"}
        called = await env.step_async(StateboxAction.model_validate(
            {"type": "call_tool", "tool_name": "find_customer", "arguments": {"email": "hollis.trevino@gmail.com"}}))
        assert (called.tool_name, called.error, called.kind) == ("find_customer", None, "tool_result")
        assert called.result["data"][0]["customer_id"] == "CUS-9106", called.result
        assert json.loads(called.result["content"][0]["text"]) == called.result["data"]
        assert called.result["is_error"] is False
        assert env.state.step_count == 1

    asyncio.run(go())


def test_an_mcp_action_is_one_thing_too() -> None:
    with pytest.raises(ValidationError, match="list_tools takes nothing else"):
        StateboxAction.model_validate({"type": "list_tools", "message": "hi"})
    with pytest.raises(ValidationError, match="call_tool needs a tool_name"):
        StateboxAction.model_validate({"type": "call_tool"})
