"""`statebox regrade`, `verify`, `show` and `play`: working with runs and tasks offline (statebox.offline)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from statebox.cli.common import fail, print_json
from statebox.cli.options import SuiteOptions, command, open_task_set
from statebox.offline import Side
from statebox.runner.taskset import TaskSet
from statebox.suites.provider import SuiteError, SuiteProvider
from statebox.tools.quoting import message_of

if TYPE_CHECKING:
    from statebox.offline.regrade import RegradeResult
    from statebox.offline.verify import Verification

# Each command imports what it runs (the runner, the judge, the MCP SDK) when it runs, so the `statebox`
# command starts without them.

RunDirArg = Annotated[Path, typer.Argument(help="A run directory.", show_default=False)]


def register(app: typer.Typer, providers: list[SuiteProvider[Any]]) -> None:
    # The suite's own options are those of `statebox tasks` (e.g. --data): enough to open it again.
    app.command("regrade")(command("tasks", RegradeOptions, regrade, providers))
    app.command("verify")(command("tasks", VerifyOptions, verify, providers))
    app.command("show")(command("tasks", ShowOptions, show, providers))
    app.command("play")(command("run", PlayOptions, play, providers))


@dataclass(frozen=True)
class RegradeOptions:
    run_dir: RunDirArg
    out: Annotated[Path | None, typer.Option(help="The new run directory (default: RUN_DIR-regraded).")] = None


def regrade(opts: RegradeOptions, suite_options: SuiteOptions) -> None:
    """Judge every stored attempt again with today's judge and tasks, into a new run directory (no model calls)."""
    from statebox.offline.regrade import RegradeError, regrade_run
    from statebox.runner.store import RunDirError

    out = opts.out or opts.run_dir.with_name(opts.run_dir.name + "-regraded")
    suite, missing = _run_suite(opts.run_dir, suite_options)
    try:
        result = regrade_run(opts.run_dir, out, suite, missing)
    except (RegradeError, RunDirError) as e:
        fail(str(e))
    print_regrade(result, Console(highlight=False, soft_wrap=True))


def _run_suite(run_dir: Path, suite_options: SuiteOptions) -> tuple[TaskSet, list[str]]:
    from statebox.offline.run_suite import open_run_suite
    from statebox.runner.store import RunDir, RunDirError

    try:
        return open_run_suite(RunDir(run_dir), suite_options)
    except (SuiteError, RunDirError) as e:
        fail(str(e))


def print_regrade(result: RegradeResult, console: Console) -> None:
    console.print(f"regraded {result.trials} attempts into {escape(str(result.out))}")
    if result.changed_tasks:
        console.print(f"tasks changed since the run (required effects from today's reference): "
                      f"{escape(', '.join(result.changed_tasks))}")  # fmt: skip
    if result.missing_tasks:
        console.print(f"tasks no longer in the suite (kept as recorded): {escape(', '.join(result.missing_tasks))}")
    for note in result.notes:
        console.print(f"[yellow]note:[/] {escape(note)}")
    console.print(f"verdicts flipped: {len(result.flips)}")
    for flip in result.flips:
        arrow = "pass -> FAIL" if flip.before else "FAIL -> pass"
        console.print(f"  {arrow}  {escape(flip.trial_id)}\n      {escape(flip.reason)}")
    for before, after in zip(result.before, result.after, strict=False):
        console.print(f"before  {escape(before.describe())}\nafter   {escape(after.describe())}")


@dataclass(frozen=True)
class VerifyOptions:
    run_dirs: Annotated[list[Path], typer.Argument(help="Run directories.", show_default=False)]


def verify(opts: VerifyOptions, suite_options: SuiteOptions) -> None:
    """Check that each run is canonical, hashes as its suite does today, is unaltered, and its numbers recompute."""
    from statebox.offline.run_suite import open_run_suite
    from statebox.offline.verify import verify_run

    console = Console(highlight=False, soft_wrap=True)
    results = [verify_run(d, lambda run: open_run_suite(run, suite_options)) for d in opts.run_dirs]
    for result in results:
        print_verification(result, console)
    if not all(r.ok for r in results):
        raise typer.Exit(1)


def print_verification(result: Verification, console: Console) -> None:
    verdict = "[green]verified[/]" if result.ok else "[red]NOT VERIFIED[/]"
    console.print(f"{escape(str(result.run))}: {verdict}")
    for pin in result.pins:
        console.print(f"  [dim]{escape(pin)}[/]")
    for check in result.checks:
        mark = "[green]ok  [/]" if check.ok else "[red]FAIL[/]"
        console.print(f"  {mark} {check.name:<9} {escape(check.detail)}")


@dataclass(frozen=True)
class ShowOptions:
    run_dir: RunDirArg
    task_id: Annotated[str, typer.Argument(help="The task's id.", show_default=False)]
    repeat: Annotated[int, typer.Option(min=0, help="Which attempt (0-based).")] = 0
    model: Annotated[str | None, typer.Option(help="Whose attempt, when the run has several models.")] = None
    json: Annotated[bool, typer.Option("--json", help="The raw trial record.")] = False


def show(opts: ShowOptions, suite_options: SuiteOptions) -> None:
    """One attempt: the conversation, the verdict and its discrepancies, what changed against what was required."""
    from statebox.offline.show import ShowError, pick_record, render
    from statebox.runner.store import RunDir, RunDirError

    try:
        run = RunDir(opts.run_dir)
        record = pick_record(run.trials(), opts.task_id, opts.repeat, opts.model, run.errors())
    except (ShowError, RunDirError) as e:
        fail(message_of(e))
    if opts.json:
        print_json(record.model_dump(mode="json"))
        return
    render(record, Console(highlight=False), _required(opts.run_dir, opts.task_id, suite_options))


def _required(run_dir: Path, task_id: str, suite_options: SuiteOptions) -> dict[str, Any] | None:
    """Today's reference end state of the task, where the suite replays references (built-in suites)."""
    from statebox.offline.run_suite import open_run_suite
    from statebox.runner.store import RunDir, RunDirError

    try:
        suite, _ = open_run_suite(RunDir(run_dir), suite_options, from_manifest=True)  # the run's own options
        return _reference_effects(suite, task_id)
    except (SuiteError, RunDirError):
        return None


def _reference_effects(suite: TaskSet, task_id: str) -> dict[str, Any] | None:
    from statebox.judge import ReferenceFailed

    try:
        required = suite.required_effects(suite.task(task_id))
    except (LookupError, ReferenceFailed):
        return None
    return required[0].to_json() if required else None


@dataclass(frozen=True)
class PlayOptions:
    suite: Annotated[str, typer.Argument(help="A suite (`statebox suites`) or a domain folder.", show_default=False)]
    task_id: Annotated[str, typer.Argument(help="The task's id.", show_default=False)]
    as_: Annotated[Side, typer.Option("--as", help="The side you play.")] = "agent"
    model: Annotated[str | None, typer.Option(help="--as customer: the model agent that serves you.")] = None
    user_model: Annotated[str | None, typer.Option(help="--as agent: an LLM customer (default: scripted).")] = None
    base_url: Annotated[str | None, typer.Option(help="Base URL for openai: models.")] = None
    out: Annotated[Path | None, typer.Option(help="Save the attempt as a run directory.")] = None


def play(opts: PlayOptions, suite_options: SuiteOptions) -> None:
    """Play one side of a task in the terminal (the agent, with tools; or the customer); then see the verdict."""
    from statebox.llm.errors import InfrastructureError
    from statebox.offline.human import Terminal
    from statebox.offline.play import PlayError, PlaySetup, play_attempt
    from statebox.offline.show import render_outcome
    from statebox.runner.errors import CampaignError

    _, suite = open_task_set("run", opts.suite, suite_options, None, None)
    try:
        task = suite.task(opts.task_id)
    except LookupError as e:
        fail(f"{str(e).strip(chr(39) + chr(34))}; see `statebox tasks {opts.suite}`")
    console = Console(highlight=False, soft_wrap=True)
    setup = PlaySetup(opts.as_, opts.model, opts.user_model, opts.base_url, opts.out)
    try:
        record = asyncio.run(play_attempt(suite, task, setup, Terminal(console)))
    except (PlayError, CampaignError, InfrastructureError) as e:
        fail(str(e))
    except KeyboardInterrupt:
        fail("interrupted; the attempt was not judged or saved", 130)
    console.print(f"\n[bold]{'PASSED' if record.passed else 'FAILED'}[/]  signature: {escape(record.signature or '-')}")
    render_outcome(record, console, _reference_effects(suite, task.id))
    if opts.out is not None:
        console.print(f"saved: {escape(str(opts.out))} (statebox show {escape(str(opts.out))} {escape(task.id)})")
