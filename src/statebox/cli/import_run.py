"""`statebox import FORMAT FILE --out RUN`: recorded attempts replayed, judged and written as a run."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from statebox.cli.common import fail
from statebox.cli.options import SuiteOptions, command
from statebox.suites.provider import SuiteProvider


def register(app: typer.Typer, providers: list[SuiteProvider[Any]]) -> None:
    # The suite's options are those of `statebox run` (--data, --server-python, ...): the attempts run again.
    app.command("import")(command("run", ImportOptions, import_file, providers))


@dataclass(frozen=True)
class ImportOptions:
    format: Annotated[str, typer.Argument(help="The recorded format, e.g. tau-bench or tb-infer.", show_default=False)]
    file: Annotated[Path, typer.Argument(help="The recorded run (trajectories) to import.", show_default=False)]
    out: Annotated[Path, typer.Option(help="The new run directory.", show_default=False)]
    model: Annotated[str | None, typer.Option(help="The recorded agent's model, as the run should name it.")] = None
    concurrency: Annotated[int, typer.Option(min=1, help="Attempts replayed at once.")] = 2
    judge_model: Annotated[
        str | None, typer.Option(help="PROVIDER:MODEL judging the rubric questions (default: none, not judged).")
    ] = None
    base_url: Annotated[str | None, typer.Option(help="Base URL for an openai: judge model.")] = None


def import_file(opts: ImportOptions, suite_options: SuiteOptions) -> None:
    """Replay every recorded attempt on fresh state, judge it as `statebox run` does, write a run directory."""
    from statebox.importing import ImportFormatError, load_importer
    from statebox.importing.engine import import_run
    from statebox.llm.client import make_client
    from statebox.mcp.errors import ToolServerError
    from statebox.runner.errors import CampaignError

    judge = None
    if opts.judge_model is not None:
        try:
            base_url = opts.base_url if opts.judge_model.startswith("openai:") else None
            judge = make_client(opts.judge_model, base_url=base_url)
        except ValueError as e:
            fail(str(e))
    try:
        importer = load_importer(opts.format)
        result = import_run(importer, opts.file, opts.out, suite_options, opts.concurrency, opts.model, judge)
    except (ImportFormatError, CampaignError) as e:
        fail(str(e))
    except ToolServerError as e:
        fail(f"a tool server failed while replaying {opts.file}: {e}", code=3)
    recorded = [t for t in result.trials if t.recorded is not None and t.recorded.passed is not None]
    agree = sum(t.recorded.passed == t.passed for t in recorded if t.recorded is not None)
    print(f"imported {len(result.trials)} attempts from {opts.file} into {opts.out}")
    print(f"statebox's verdict agrees with the recorded one on {agree}/{len(recorded)} finished attempts "
          f"(`statebox report {opts.out}` lists each disagreement)")  # fmt: skip
