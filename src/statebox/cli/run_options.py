"""The options of `statebox run` (the suite's own options aside), typed so that typer checks them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from statebox.runner.plan import AgentKind, ExecutorKind, ToolsVia, UserKind

WORKERS_HELP = (
    "Processes, each running a slice at --concurrency; 0 = auto (one per core, up to 4, "
    "for the reference/no-op agents on 200+ attempts; for the LLM agent one per 50 attempts "
    "in flight, sharing --concurrency out; else 1)."
)


@dataclass(frozen=True)
class RunOptions:
    """What `statebox run` was given; choices and ranges are checked by typer before any of this is used."""

    suite: Annotated[str, typer.Argument(help="A suite (`statebox suites`) or a domain folder.", show_default=False)]
    out: Annotated[Path, typer.Option("--out", help="Run directory (manifest.json, trials.jsonl, errors.jsonl).")]
    agent: Annotated[AgentKind, typer.Option(help="The agent under test.")] = "llm"
    model: Annotated[list[str] | None, typer.Option("--model", help="PROVIDER:MODEL; may repeat.")] = None
    base_url: Annotated[
        str | None,
        typer.Option(help="Endpoint of the --model providers' models (all models' if no --model); see docs/models.md."),
    ] = None
    user: Annotated[UserKind | None, typer.Option(help="Simulated customer (default: llm).")] = None
    user_model: Annotated[str | None, typer.Option(help="Model of the LLM customer (default: the first --model).")] = (
        None
    )
    judge_model: Annotated[str | None, typer.Option(help="Rubric judge model (default: the first --model).")] = None
    repeat: Annotated[int, typer.Option(min=1, help="Attempts per task and model.")] = 1
    concurrency: Annotated[int, typer.Option(min=1, help="Attempts in flight at once.")] = 4
    tasks: Annotated[list[str] | None, typer.Option("--tasks", help="Task id glob; may repeat.")] = None
    test_list: Annotated[Path | None, typer.Option(help="YAML list of task ids.")] = None
    shard: Annotated[str | None, typer.Option(help="I/N: run only this deterministic slice.")] = None
    resume: Annotated[bool, typer.Option(help="Continue a run: skip finished attempts, retry errors.")] = False
    rerun_simulator_faults: Annotated[
        bool, typer.Option(help="With --resume: run again the attempts whose trial has simulator faults.")
    ] = False
    temperature: Annotated[float | None, typer.Option(help="Sampling temperature.")] = None
    max_tokens: Annotated[int | None, typer.Option(help="Max output tokens per call.")] = None
    reasoning_effort: Annotated[str | None, typer.Option(help="Reasoning effort, where supported.")] = None
    parallel_tool_calls: Annotated[bool, typer.Option(help="Let the model call several tools at once.")] = False
    tools_via: Annotated[
        ToolsVia, typer.Option(help="memory (in-process MCP), http (loopback proxy) or direct.")
    ] = "memory"
    prices: Annotated[Path | None, typer.Option(help="YAML price overrides per model spec.")] = None
    time_budget: Annotated[float, typer.Option(help="Wall-clock seconds per attempt.")] = 600.0
    no_progress: Annotated[bool, typer.Option("--no-progress", help="No progress bar.")] = False
    workers: Annotated[int, typer.Option(min=0, help=WORKERS_HELP)] = 0
    max_retries: Annotated[int, typer.Option(min=0, help="Retries of a failing model call (429, 5xx, timeouts).")] = 5
    request_timeout: Annotated[float, typer.Option(help="Seconds before one model call times out.")] = 120.0
    executor: Annotated[
        ExecutorKind, typer.Option(help="local (this machine) or ray (Ray workers; needs statebox[ray]).")
    ] = "local"
    ray_address: Annotated[
        str | None, typer.Option(help="With --executor ray: the cluster to join (default: RAY_ADDRESS, else local).")
    ] = None
