"""`statebox demo`: the embedded default, no API key — two campaigns and their report side by side."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from statebox.cli.common import err_console, fail, open_suite
from statebox.suites.builtin import DEMO_SUITE

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
    # Imported here, not at the top: every other command starts without the campaign, server and report stacks.
    from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
    from statebox.report.aggregate import report_document
    from statebox.report.html import write_html
    from statebox.report.runs import load_runs
    from statebox.report.terminal import render_report
    from statebox.runner.campaign import Campaign
    from statebox.runner.plan import CampaignConfig

    s = open_suite(suite)
    if out.exists():
        if not (out / "reference" / "manifest.json").exists():
            fail(f"{out} exists and is not a statebox demo directory; choose another --out")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    prices = out / "demo-prices.yaml"
    prices.write_text(DEMO_PRICES)
    err_console.print(f"[bold]1/3[/] reference agent: {len(s.tasks)} tasks x {repeat} repeats", highlight=False)
    asyncio.run(Campaign(CampaignConfig(suite=s, agent="reference", out=out / "reference", repeat=repeat)).run())
    app = FakeModelApp(s, FakeModelConfig(mode="flaky", error_rate=error_rate))
    with FakeModelServer(app) as server:
        err_console.print(
            f"[bold]2/3[/] LLM agent on a flaky fake model at {server.base_url} "
            f"(mistake rate {error_rate:.0%}), scripted customer",
            highlight=False,
        )
        config = CampaignConfig(
            suite=s,
            agent="llm",
            out=out / "fake-flaky",
            models=["openai:fake"],
            base_url=server.base_url,
            user="scripted",
            repeat=repeat,
            prices_file=prices,
        )
        asyncio.run(Campaign(config).run())
    err_console.print("[bold]3/3[/] report", highlight=False)
    loaded = load_runs([out / "reference", out / "fake-flaky"])
    document = report_document(loaded)
    render_report(document, Console())
    write_html(out / "report.html", loaded, document.model_dump(mode="json"))
    err_console.print(f"HTML report: {out / 'report.html'}  (runs: {out}/reference, {out}/fake-flaky)", highlight=False)
