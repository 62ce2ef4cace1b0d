"""`statebox demo`: the embedded default, no API key — two campaigns and their report side by side."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from statebox.cli.common import err_console, fail, open_suite
from statebox.suites.builtin import DEMO_SUITE

if TYPE_CHECKING:
    from statebox.suites import Suite

# Made-up prices for the fake model, so the demo shows cost per success and per dependable task.
DEMO_PRICES = """\
# Demo prices for the scripted fake model (not a real model's prices).
"openai:fake":
  input_per_mtok: 1.0
  cached_input_per_mtok: 0.25
  output_per_mtok: 4.0
"""


def register(app: typer.Typer) -> None:
    app.command("demo")(demo)


def demo(
    out: Annotated[Path, typer.Option(help="Where the demo's runs and report go (replaced on each run).")] = Path(
        "runs/demo"
    ),
    suite: Annotated[str, typer.Option(help="Built-in suite to run.")] = DEMO_SUITE,
    repeat: Annotated[int, typer.Option(min=1, help="Attempts per task.")] = 5,
    error_rate: Annotated[float, typer.Option(help="How often the flaky fake model makes a mistake.")] = 0.3,
) -> None:
    """Run the reference agent and a flaky fake model (scripted customer) on a built-in suite, then report both."""
    s = open_suite(suite)
    _fresh_demo_dir(out)
    prices = out / "demo-prices.yaml"
    prices.write_text(DEMO_PRICES)
    err_console.print(f"[bold]1/3[/] reference agent: {len(s.tasks)} tasks x {repeat} repeats", highlight=False)
    _run_reference(s, out / "reference", repeat)
    _run_flaky_model(s, out / "fake-flaky", repeat, error_rate, prices)
    err_console.print("[bold]3/3[/] report", highlight=False)
    _report([out / "reference", out / "fake-flaky"], out / "report.html")
    err_console.print(f"HTML report: {out / 'report.html'}  (runs: {out}/reference, {out}/fake-flaky)", highlight=False)


def _fresh_demo_dir(out: Path) -> None:
    """An empty `out`, replacing a previous demo's; anything else there is refused, never deleted."""
    if out.exists():
        if not (out / "reference" / "manifest.json").exists():
            fail(f"{out} exists and is not a statebox demo directory; choose another --out")
        shutil.rmtree(out)
    out.mkdir(parents=True)


def _run_flaky_model(suite: Suite, out: Path, repeat: int, error_rate: float, prices: Path) -> None:
    """The LLM agent against a local fake model that makes a mistake in `error_rate` of attempts."""
    # Imported here, not at the top: every other command starts without the campaign, server and report stacks.
    from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
    from statebox.runner.campaign import Campaign
    from statebox.runner.plan import CampaignConfig

    app = FakeModelApp(suite, FakeModelConfig(mode="flaky", error_rate=error_rate))
    with FakeModelServer(app) as server:
        err_console.print(
            f"[bold]2/3[/] LLM agent on a flaky fake model at {server.base_url} "
            f"(mistake rate {error_rate:.0%}), scripted customer",
            highlight=False,
        )
        config = CampaignConfig(
            suite=suite,
            agent="llm",
            out=out,
            models=["openai:fake"],
            base_url=server.base_url,
            user="scripted",
            repeat=repeat,
            prices_file=prices,
        )
        asyncio.run(Campaign(config).run())


def _run_reference(suite: Suite, out: Path, repeat: int) -> None:
    from statebox.runner.campaign import Campaign
    from statebox.runner.plan import CampaignConfig

    asyncio.run(Campaign(CampaignConfig(suite=suite, agent="reference", out=out, repeat=repeat)).run())


def _report(runs: list[Path], html: Path) -> None:
    """Both runs' report on the terminal, and the HTML report beside them."""
    from statebox.report.aggregate import report_document
    from statebox.report.html import write_html
    from statebox.report.runs import load_runs
    from statebox.report.terminal import render_report

    loaded = load_runs(runs)
    document = report_document(loaded)
    render_report(document, Console())
    write_html(html, loaded, document.model_dump(mode="json"))
