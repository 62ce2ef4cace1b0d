"""examples/grpo_tiny_model.py: a randomly initialised `transformers` model plays episodes of a retail task against a
real `statebox openenv-serve` through its chat template, and one GRPO step moves its log-probabilities the way
the advantages say."""

from __future__ import annotations

import asyncio
import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

torch = pytest.importorskip("torch", reason="the `train` extra (torch, transformers) is not installed")
pytest.importorskip("transformers", reason="the `train` extra (torch, transformers) is not installed")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TASK = "air_purifier_return_refund_wrong_rma_number"
Played = tuple[Any, Any, list[Any]]  # the tokenizer, the model, the group of (rollout, turns)


@pytest.fixture(scope="module")
def example() -> Iterator[ModuleType]:
    sys.path.insert(0, str(EXAMPLES))  # the example imports its sibling grpo_rollout, as when run as a script
    try:
        yield importlib.import_module("grpo_tiny_model")
    finally:
        sys.path.remove(str(EXAMPLES))


@pytest.fixture(scope="module")
def played(example: ModuleType, openenv_server: str) -> Played:
    """The tokenizer, the model and a group of two episodes it played."""
    tokenizer = example.tiny_tokenizer(asyncio.run(example.corpus_of(openenv_server, TASK)), vocab=600)
    model = example.tiny_model(len(tokenizer), seed=1)
    policies = [example.ModelPolicy(model, tokenizer, max_turns=2, max_new_tokens=12) for _ in range(2)]
    return tokenizer, model, asyncio.run(example.play_group(openenv_server, TASK, policies))


def test_each_episode_is_the_models_turns_and_its_reward_is_the_servers_verdict(played: Played) -> None:
    _, _, group = played
    for rollout, turns in group:
        assert rollout.reward == float(rollout.info["passed"]), rollout.info
        assert rollout.info["verdict"]["signature"], rollout.info["verdict"]  # a random model fails, with a reason
        said = [m for m in rollout.messages if m["role"] == "assistant"]
        assert len(said) == len(turns) and all(len(t.generated) > 0 for t in turns), (len(said), len(turns))


def test_the_chat_template_renders_a_call_that_parses_back_to_the_same_call(
    example: ModuleType, played: Played
) -> None:
    tokenizer, _, _ = played
    tools = [{"type": "function", "function": {"name": "get_order", "description": "", "parameters": {}}}]
    call = {"id": "c1", "type": "function", "function": {"name": "get_order", "arguments": {"order_id": "W-1"}}}
    text = tokenizer.apply_chat_template(
        [{"role": "assistant", "content": None, "tool_calls": [call]}], tools=tools, tokenize=False
    )
    parsed = example.parse_reply(text, tools, 1)
    assert [c["function"] for c in parsed["tool_calls"]] == [call["function"]], text
    unknown = example.parse_reply('<tool_call>{"name": "drop_tables", "arguments": {}}</tool_call>', tools, 1)
    assert "tool_calls" not in unknown and unknown["content"] == "...", unknown


def test_a_grpo_step_moves_the_advantaged_rollouts_tokens_up_against_the_others(
    example: ModuleType, played: Played
) -> None:
    _, model, group = played
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    (better, better_turns), (worse, worse_turns) = group
    better.advantage, worse.advantage = 0.0, 0.0
    before = [p.detach().clone() for p in model.parameters()]
    assert example.grpo_step(model, optimizer, group) is False
    assert all(torch.equal(a, b) for a, b in zip(before, model.parameters(), strict=True))

    def logprob(turns: list[Any]) -> float:
        with torch.no_grad():
            return float(sum(example.token_logprob(model, t) for t in turns))

    better.advantage, worse.advantage = 1.0, -1.0  # as if the first had passed: the loss's sign is what is tested
    was = (logprob(better_turns), logprob(worse_turns))
    assert example.grpo_step(model, optimizer, group) is True
    now = (logprob(better_turns), logprob(worse_turns))
    # the step ascends advantage x log-probability: the advantaged rollout gains on the other (one shared model, so
    # each may move either way on its own; their difference is what the loss moves)
    assert now[0] - now[1] > was[0] - was[1], f"log-probabilities (better, worse) before {was}, after {now}"
