"""Helpers for the conversation tests: scripted model replies over real HTTP, and one-attempt runs.

The scriptable server is tests/llm/fake_endpoints.py, loaded by its path under a name of its own:
`llm` is also the name of a package on PyPI, and the tests/llm package is only importable as
`llm` when tests/ happens to be on sys.path first.
"""

from __future__ import annotations

import asyncio
import importlib.util
import itertools
import json
import random
import sys
from contextlib import AsyncExitStack
from pathlib import Path
from types import ModuleType
from typing import Any

from statebox.agents.base import Agent
from statebox.agents.llm_agent import LlmAgent
from statebox.judge import required_effects
from statebox.llm import ModelClient, RetryPolicy, make_client
from statebox.runner.backend import ToolTransport, WorldBackend, direct_transport
from statebox.runner.episode import AttemptPlan, run_attempt
from statebox.runner.record import TrialRecord
from statebox.suites import Suite
from statebox.tasks import Task
from statebox.users.base import SimulatedCustomer
from statebox.users.llm_customer import LlmCustomer
from statebox.users.scripted import ScriptedCustomer


def _load_fake_endpoints() -> ModuleType:
    name = "statebox_conversation_fake_endpoints"
    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).resolve().parents[1] / "llm" / "fake_endpoints.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, f"cannot load {path}"
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is created
    spec.loader.exec_module(module)
    return module


_fake = _load_fake_endpoints()
FakeEndpoint = _fake.FakeEndpoint
Scripted = _fake.Scripted
fail = _fake.fail
openai_reply = _fake.openai_reply

_CALL_IDS = itertools.count(1)

# Fast, and still bounded: three retries, millisecond backoff, 2 s per request.
FAST_RETRY = RetryPolicy(max_retries=3, base_delay=0.001, max_delay=0.01, timeout_s=2.0, rng=random.Random(0))


def say(text: str | None, **usage: Any) -> dict[str, Any]:
    """A model reply with text and no tool call."""
    return openai_reply(text, usage=_usage(**usage) if usage else None)


def call(name: str, arguments: dict[str, Any] | str, call_id: str | None = None, **usage: Any) -> dict[str, Any]:
    """A model reply with one tool call; a str is sent as the raw argument text, malformed or not."""
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    call_id = call_id or f"call_{name}_{next(_CALL_IDS)}"
    return openai_reply(
        None,
        tool_calls=[(call_id, name, raw)],
        finish_reason="tool_calls",
        usage=_usage(**usage) if usage else None,
    )


def _usage(prompt: int = 10, completion: int = 2, cached: int = 0, reasoning: int = 0) -> dict[str, Any]:
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
        "prompt_tokens_details": {"cached_tokens": cached},
        "completion_tokens_details": {"reasoning_tokens": reasoning},
    }


def base_url(endpoint: Any) -> str:
    """A FakeEndpoint's OpenAI base URL, or the URL itself (e.g. a FakeModelServer's base_url)."""
    return endpoint if isinstance(endpoint, str) else str(endpoint.openai_url)


def client_for(endpoint: Any, spec: str = "openai:scripted", retry: RetryPolicy | None = None) -> ModelClient:
    return make_client(spec, base_url=base_url(endpoint), retry=retry or FAST_RETRY, max_concurrency=1)


def run_llm_attempt(
    suite: Suite,
    task: Task,
    endpoint: Any,
    *,
    user: str | None = "scripted",
    user_endpoint: Any = None,
    time_budget_s: float = 600.0,
    transport: ToolTransport = direct_transport,
    retry: RetryPolicy | None = None,
) -> TrialRecord:
    """One attempt of the LLM agent on `endpoint` (a FakeEndpoint or a base URL).

    The customer is scripted (from the task's profile), an LLM on `user_endpoint`, or none.
    """

    async def attempt() -> TrialRecord:
        async with AsyncExitStack() as stack:
            agent_client = client_for(endpoint, retry=retry)
            stack.push_async_callback(agent_client.aclose)
            customer: SimulatedCustomer | None = None
            if user == "scripted":
                customer = ScriptedCustomer(task.customer)
            elif user == "llm":
                user_client = client_for(user_endpoint, "openai:customer")
                stack.push_async_callback(user_client.aclose)
                customer = LlmCustomer(user_client, task.customer)
            agent = LlmAgent(agent_client, task.limits, time_budget_s=time_budget_s)
            return await run_plan(suite, task, agent, customer, transport, time_budget_s)

    return asyncio.run(attempt())


async def run_plan(
    suite: Suite,
    task: Task,
    agent: Agent,
    customer: SimulatedCustomer | None,
    transport: ToolTransport = direct_transport,
    time_budget_s: float = 600.0,
) -> TrialRecord:
    plan = AttemptPlan(
        suite=suite,
        task=task,
        agent=agent,
        customer=customer,
        repeat=0,
        backend=WorldBackend(suite, task, required_effects(suite, task), transport),
        time_budget_s=time_budget_s,
    )
    return await run_attempt(plan)


def tool_entries(record: TrialRecord) -> list[tuple[str | None, bool, str | None]]:
    """(tool name, is_error, error_kind) of every tool result in the transcript."""
    return [(e.tool_name, e.is_error, e.error_kind) for e in record.transcript.tool_results()]


def explain(record: TrialRecord) -> str:
    """A failed attempt, readable in an assertion message."""
    lines = [f"passed={record.passed} finish={record.finish_reason} signature={record.signature}"]
    lines += [d.describe() for d in record.discrepancies]
    lines += [
        f"  {e.role}: {e.content[:120]!r} {[(c.name, c.raw_arguments) for c in e.tool_calls]}"
        for e in record.transcript.entries
    ]
    return "\n".join(lines)
