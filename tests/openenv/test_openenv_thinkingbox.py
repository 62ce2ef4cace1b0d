"""OpenEnv episodes over a (fake) ThinkingBox-Bench checkout: the benchmark's own tool servers per episode,
the reward by the benchmark's rule (hash equality), statebox's typed discrepancies in the metadata."""

from __future__ import annotations

import asyncio
import sys

import pytest

from statebox.openenv.environment import StateboxEnvironment
from statebox.openenv.models import StateboxAction, StateboxObservation
from statebox.openenv.source import EpisodeSource
from statebox.runner.taskset import TaskSet
from statebox.suites.provider import provider_opener
from tbfakes import RETAIL_FILE, FakeCheckout, make_fake_checkout

pytestmark = pytest.mark.slow  # each episode starts tool-server processes
TASK = f"{RETAIL_FILE}:test_cancel_order"


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> TaskSet:
    fake: FakeCheckout = make_fake_checkout(tmp_path_factory.mktemp("openenv-tb") / "checkout")
    return provider_opener({"data": fake.root, "server_python": sys.executable})("thinkingbox-bench")


def _play(suite: TaskSet, actions: list[StateboxAction]) -> tuple[StateboxObservation, list[StateboxObservation]]:
    source = EpisodeSource(suite)
    source.prepare()

    async def go() -> tuple[StateboxObservation, list[StateboxObservation]]:
        async with source.running():
            env = StateboxEnvironment(source)
            start = await env.reset_async(task_id=TASK)
            steps = [await env.step_async(action) for action in actions]
            return start, steps

    return asyncio.run(go())


def test_the_reference_earns_reward_one_and_reserved_tools_are_neither_offered_nor_reachable(suite: TaskSet) -> None:
    reference = [StateboxAction(tool=c.tool, arguments=c.args) for c in suite.task(TASK).reference]
    refused = StateboxAction(tool="__reserved__geteffects", arguments={})
    start, steps = _play(suite, [refused, *reference, StateboxAction(end=True)])
    names = [t["name"] for t in start.tools]
    assert "cancel_order" in names and [n for n in names if n.startswith("__reserved__")] == []
    assert start.policy and start.text == suite.task(TASK).opening_message
    assert (steps[0].is_error, steps[0].error_kind) == (True, "unknown_tool"), steps[0].text
    assert [s.text for s in steps[1:-1] if s.is_error] == []
    last = steps[-1]
    assert (last.done, last.reward, last.info["passed"]) == (True, 1.0, True), last.info
    assert last.info["discrepancies"] == [] and last.info["effects"]["updated"], last.info["effects"]


def test_doing_nothing_earns_zero_with_typed_missing_effects_in_the_metadata(suite: TaskSet) -> None:
    _, steps = _play(suite, [StateboxAction(end=True)])
    last = steps[-1]
    assert (last.done, last.reward) == (True, 0.0)
    kinds = {d["kind"] for d in last.info["discrepancies"]}
    assert kinds == {"missing_effect"}, last.info["discrepancies"]
    assert last.info["signature"] == "no_state_change", last.info


def test_a_shaped_reward_is_refused_for_a_suite_without_required_effects(suite: TaskSet) -> None:
    with pytest.raises(ValueError, match="shaped reward needs a built-in suite"):
        EpisodeSource(suite, shaped=True)
