"""`statebox run`: a campaign of tasks x models x repeats into a run directory."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from statebox.cli import thinkingbox
from statebox.cli.common import fail, open_suite
from statebox.llm.retry import RetryPolicy
from statebox.llm.types import Sampling
from statebox.runner.backend import TaskSet
from statebox.runner.campaign import Campaign, CampaignError
from statebox.runner.plan import AgentKind, CampaignConfig, ToolsVia, UserKind

EXIT_INFRA_ERRORS = 3  # the run finished, but some attempts hit infrastructure errors (see errors.jsonl)


def register(app: typer.Typer) -> None:
    app.command("run")(run)


def _shard(value: str | None) -> tuple[int, int] | None:
    if value is None:
        return None
    try:
        i, n = (int(x) for x in value.split("/"))
    except ValueError:
        fail(f"--shard {value!r}: expected I/N, e.g. 0/4")
    if not 0 <= i < n:
        fail(f"--shard {value!r}: I must be in 0..N-1")
    return i, n


def run(
    suite: str,
    out: Annotated[Path, typer.Option("--out", help="Run directory (manifest.json, trials.jsonl, errors.jsonl).")],
    agent: Annotated[str, typer.Option(help="llm, reference or noop.")] = "llm",
    model: Annotated[list[str] | None, typer.Option("--model", help="PROVIDER:MODEL; may repeat.")] = None,
    base_url: Annotated[str | None, typer.Option(help="Base URL for every openai: model.")] = None,
    user: Annotated[str | None, typer.Option(help="Simulated customer: llm (default) or scripted.")] = None,
    user_model: Annotated[
        str | None, typer.Option(help="Model of the LLM customer (default: the first --model).")
    ] = None,
    judge_model: Annotated[str | None, typer.Option(help="Rubric judge model (default: the first --model).")] = None,
    repeat: Annotated[int, typer.Option(min=1, help="Attempts per task and model.")] = 1,
    concurrency: Annotated[int, typer.Option(min=1, help="Attempts in flight at once.")] = 4,
    tasks: Annotated[list[str] | None, typer.Option("--tasks", help="Task id glob; may repeat.")] = None,
    test_list: Annotated[Path | None, typer.Option(help="YAML list of task ids.")] = None,
    shard: Annotated[str | None, typer.Option(help="I/N: run only this deterministic slice.")] = None,
    resume: Annotated[bool, typer.Option(help="Continue a run: skip finished attempts, retry errors.")] = False,
    temperature: Annotated[float | None, typer.Option(help="Sampling temperature.")] = None,
    max_tokens: Annotated[int | None, typer.Option(help="Max output tokens per call.")] = None,
    reasoning_effort: Annotated[str | None, typer.Option(help="Reasoning effort, where supported.")] = None,
    parallel_tool_calls: Annotated[bool, typer.Option(help="Let the model call several tools at once.")] = False,
    tools_via: Annotated[
        str, typer.Option(help="memory (in-process MCP), http (loopback proxy) or direct.")
    ] = "memory",
    prices: Annotated[Path | None, typer.Option(help="YAML price overrides per model spec.")] = None,
    time_budget: Annotated[float, typer.Option(help="Wall-clock seconds per attempt.")] = 600.0,
    no_progress: Annotated[bool, typer.Option("--no-progress", help="No progress bar.")] = False,
    workers: Annotated[
        int,
        typer.Option(
            min=0,
            help="Processes, each running a slice at --concurrency; 0 = auto (one per core, up "
            "to 4, for the reference/no-op agents on 200+ attempts; else 1).",
        ),
    ] = 0,
    max_retries: Annotated[int, typer.Option(min=0, help="Retries of a failing model call (429, 5xx, timeouts).")] = 5,
    request_timeout: Annotated[float, typer.Option(help="Seconds before one model call times out.")] = 120.0,
    data: Annotated[
        Path | None, typer.Option(help="thinkingbox-bench: a checkout of the benchmark's data repository.")
    ] = None,
    server_python: Annotated[
        str | None, typer.Option(help="thinkingbox-bench: the Python that runs the tool servers.")
    ] = None,
    typesense: Annotated[
        str | None, typer.Option(help="thinkingbox-bench: search_policy through this Typesense URL.")
    ] = None,
    fork: Annotated[bool, typer.Option(help="thinkingbox-bench: fork `{python} -m` servers from a template.")] = True,
) -> None:
    """Run a campaign. Each finished attempt is appended to OUT/trials.jsonl as it ends."""
    if agent not in ("llm", "reference", "noop"):
        fail(f"--agent {agent!r}: choose llm, reference or noop")
    if agent == "llm" and not model:
        fail("--agent llm needs at least one --model PROVIDER:MODEL (e.g. openai:gpt-4.1)")
    if user is not None and user not in ("llm", "scripted"):
        fail(f"--user {user!r}: choose llm or scripted")
    if tools_via not in ("memory", "http", "direct"):
        fail(f"--tools-via {tools_via!r}: choose memory, http or direct")
    checkout = thinkingbox.checkout_path(suite, data)
    if checkout is not None:
        if parallel_tool_calls:
            fail("thinkingbox-bench runs with parallel tool calls off, as its agent spec says")
        options = thinkingbox.run_options(server_python, typesense, fork)
        chosen: TaskSet = thinkingbox.open_tb(checkout, tasks, test_list, options)
        thinkingbox.warn_unsupported(chosen)
    elif server_python is not None or typesense is not None:
        fail("--server-python and --typesense are only for thinkingbox-bench")
    else:
        chosen = open_suite(suite, tasks, test_list)
    config = CampaignConfig(
        suite=chosen,
        agent=_as_agent(agent),
        out=out,
        models=list(model or []),
        base_url=base_url,
        user=_as_user(user),
        user_model=user_model,
        judge_model=judge_model,
        repeat=repeat,
        concurrency=concurrency,
        shard=_shard(shard),
        resume=resume,
        sampling=Sampling(
            temperature=temperature,
            max_tokens=max_tokens,
            reasoning_effort=reasoning_effort,
            parallel_tool_calls=parallel_tool_calls,
        ),
        tools_via=_as_via(tools_via),
        time_budget_s=time_budget,
        prices_file=prices,
        progress=not no_progress,
        workers=workers,
        retry=RetryPolicy(max_retries=max_retries, timeout_s=request_timeout),
    )
    try:
        campaign = Campaign(config)
        result = campaign.run_blocking()
    except (CampaignError, ValueError) as e:
        fail(str(e))
    console = Console(stderr=True)
    console.print(
        f"{result.ran} attempts: [green]{result.passed} passed[/], [red]{result.failed} failed[/], "
        f"[yellow]{result.errors} infrastructure errors[/] -> {out}",
        highlight=False,
    )
    for msg in result.error_messages[:5]:
        console.print(f"  [yellow]error[/] {msg.split(' | ')[0]}", highlight=False)
    if len(result.error_messages) > 5:
        console.print(f"  ... and {len(result.error_messages) - 5} more in {out / 'errors.jsonl'}", highlight=False)
    if result.errors:
        console.print("  rerun with --resume to retry the infrastructure errors", highlight=False)
        raise typer.Exit(EXIT_INFRA_ERRORS)


def _as_agent(v: str) -> AgentKind:
    return "llm" if v == "llm" else "reference" if v == "reference" else "noop"


def _as_user(v: str | None) -> UserKind | None:
    return None if v is None else "scripted" if v == "scripted" else "llm"


def _as_via(v: str) -> ToolsVia:
    return "http" if v == "http" else "direct" if v == "direct" else "memory"
