"""From the options of `statebox run` and the opened suite to the campaign's configuration."""

from __future__ import annotations

from statebox.cli.common import fail
from statebox.cli.run_options import RunOptions
from statebox.llm.retry import RetryPolicy
from statebox.llm.types import Sampling
from statebox.runner.plan import CampaignConfig
from statebox.runner.taskset import TaskSet

MAX_PLANNED_ATTEMPTS = 1_000_000  # one run directory's trials are read whole by report, verify and --resume


def campaign_config(opts: RunOptions, suite: TaskSet) -> CampaignConfig:
    """The campaign `statebox run` was asked for; what typer cannot check is a one-line error here."""
    if opts.agent == "llm" and not opts.model:
        fail("--agent llm needs at least one --model PROVIDER:MODEL (e.g. openai:gpt-4.1)")
    if opts.rerun_simulator_faults and not opts.resume:
        fail("--rerun-simulator-faults reruns attempts of an existing run: give it with --resume")
    if opts.ray_address and opts.executor != "ray":
        fail("--ray-address is for --executor ray")
    planned = len(suite.tasks) * max(1, len(opts.model or []) if opts.agent == "llm" else 1) * opts.repeat
    if planned > MAX_PLANNED_ATTEMPTS:
        fail(f"--repeat {opts.repeat}: {planned:,} attempts planned, over the {MAX_PLANNED_ATTEMPTS:,} one run "
             "directory holds; split the campaign with --shard I/N into run directories that `report` merges")
    return CampaignConfig(
        suite=suite,
        agent=opts.agent,
        out=opts.out,
        models=list(opts.model or []),
        base_url=opts.base_url,
        user=opts.user,
        user_model=opts.user_model,
        judge_model=opts.judge_model,
        repeat=opts.repeat,
        concurrency=opts.concurrency,
        shard=parse_shard(opts.shard),
        resume=opts.resume,
        rerun_simulator_faults=opts.rerun_simulator_faults,
        sampling=Sampling(
            temperature=opts.temperature,
            max_tokens=opts.max_tokens,
            reasoning_effort=opts.reasoning_effort,
            parallel_tool_calls=opts.parallel_tool_calls,
        ),
        tools_via=opts.tools_via,
        time_budget_s=opts.time_budget,
        prices_file=opts.prices,
        progress=not opts.no_progress,
        workers=opts.workers,
        retry=RetryPolicy(max_retries=opts.max_retries, timeout_s=opts.request_timeout),
        executor=opts.executor,
        ray_address=opts.ray_address,
    )


def parse_shard(value: str | None) -> tuple[int, int] | None:
    """`--shard I/N`, with I in 0..N-1."""
    if value is None:
        return None
    try:
        i, n = (int(x) for x in value.split("/"))
    except ValueError:
        fail(f"--shard {value!r}: expected I/N, e.g. 0/4")
    if not 0 <= i < n:
        fail(f"--shard {value!r}: I must be in 0..N-1")
    return i, n
