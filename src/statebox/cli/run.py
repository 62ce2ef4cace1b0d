"""`statebox run`: a campaign of tasks x models x repeats into a run directory."""

from __future__ import annotations

from typing import Any

import typer

from statebox.cli.common import fail, warn
from statebox.cli.options import SuiteOptions, command, open_task_set
from statebox.cli.run_config import campaign_config
from statebox.cli.run_options import RunOptions
from statebox.cli.run_outcome import (
    EXIT_INFRA_ERRORS,
    EXIT_INTERRUPTED,
    planned_attempts,
    print_interrupted,
    print_outcome,
)
from statebox.suites.provider import SuiteProvider

__all__ = ["EXIT_INFRA_ERRORS", "register", "run"]


def register(app: typer.Typer, providers: list[SuiteProvider[Any]]) -> None:
    app.command("run")(command("run", RunOptions, run, providers))


def run(opts: RunOptions, suite_options: SuiteOptions) -> None:
    """Run a campaign. Each finished attempt is appended to OUT/trials.jsonl as it ends."""
    from statebox.runner.campaign import Campaign, CampaignError  # with the MCP SDK: loaded by this command only

    _, suite = open_task_set("run", opts.suite, suite_options, opts.tasks, opts.test_list)
    config = campaign_config(opts, suite)
    for message in suite.warnings():
        warn(message)
    try:
        result = Campaign(config).run_blocking()
    except (CampaignError, ValueError) as e:
        fail(str(e))
    except KeyboardInterrupt:
        print_interrupted(opts.out, planned_attempts(config))
        raise typer.Exit(EXIT_INTERRUPTED) from None
    except Exception as e:
        from statebox.folders.folder import domain_code_error

        if (problem := domain_code_error(e)) is None:
            raise  # statebox's own: a traceback is the report
        fail(problem)  # a domain folder's own code (docs/your-own-domain.md)
    print_outcome(result, opts.out, resumed=opts.resume)
