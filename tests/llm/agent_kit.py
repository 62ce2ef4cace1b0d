"""One attempt of the LLM agent on the mini helpdesk, with its model on a local fake endpoint."""

from __future__ import annotations

import asyncio

from minidomain import mini_suite
from statebox.agents.llm_agent import LlmAgent
from statebox.judge import required_effects
from statebox.llm import RetryPolicy, Sampling, make_client
from statebox.runner.backend import WorldBackend
from statebox.runner.episode import AttemptPlan, run_attempt
from statebox.runner.record import TrialRecord

from .fake_endpoints import FakeEndpoint

STATUS = "check-status"  # read-only: the agent looks ticket T-2 up and says it is pending


def run_agent(
    endpoint: FakeEndpoint,
    provider: str,
    retry: RetryPolicy,
    *,
    task_id: str = STATUS,
    time_budget_s: float = 600.0,
    sampling: Sampling | None = None,
) -> TrialRecord:
    """The LLM agent (no customer: it ends after its first reply) over `provider`'s dialect."""
    suite = mini_suite()
    task = suite.task(task_id)

    async def attempt() -> TrialRecord:
        if provider == "openai":
            client = make_client("openai:m", base_url=endpoint.openai_url, retry=retry, sampling=sampling)
        else:
            client = make_client("anthropic:m", base_url=endpoint.url, api_key="k", retry=retry, sampling=sampling)
        async with client:
            agent = LlmAgent(client, task.limits, time_budget_s=time_budget_s)
            plan = AttemptPlan(
                suite=suite,
                task=task,
                agent=agent,
                customer=None,
                repeat=0,
                backend=WorldBackend(suite, task, required_effects(suite, task)),
                time_budget_s=time_budget_s,
            )
            return await run_attempt(plan)

    return asyncio.run(attempt())
