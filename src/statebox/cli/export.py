"""`statebox export`: a run's attempts as training data (the OpenAI chat format with tools, one line each)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, cast

import typer

from statebox.cli.common import err_console, fail
from statebox.openenv.chat import Only, chat_record, wanted
from statebox.runner.store import RunDir, RunDirError
from statebox.tasks import discover_domains

FORMATS = ("chat-jsonl",)
ONLY = ("passed", "failed", "all")


def register(app: typer.Typer) -> None:
    app.command("export")(export)


def export(
    run_dir: Path,
    format: Annotated[str, typer.Option("--format", help="Output format: chat-jsonl.")] = "chat-jsonl",
    only: Annotated[str, typer.Option(help="Which attempts: passed, failed or all.")] = "all",
    out: Annotated[Path | None, typer.Option(help="File to write (default: standard output).")] = None,
) -> None:
    """Write one line per finished attempt: messages (system, user, assistant tool calls, tool results),
    tools, reward, verdict, task id, domain, model and repeat."""
    if format not in FORMATS:
        fail(f"--format {format!r}: expected one of {', '.join(FORMATS)}")
    if only not in ONLY:
        fail(f"--only {only!r}: expected passed, failed or all")
    run = RunDir(run_dir)
    if not run.exists():
        fail(f"{run_dir}: no trials.jsonl or manifest.json; is this a statebox run directory?")
    try:
        records = run.trials()
    except RunDirError as e:
        fail(str(e))
    domains = discover_domains()
    kept = [r for r in records if wanted(r, cast(Only, only))]
    lines = [json.dumps(chat_record(r, domains.get(r.domain)), ensure_ascii=False, default=str) for r in kept]
    text = "".join(line + "\n" for line in lines)
    if out is None:
        sys.stdout.write(text)
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
    flagged = sum(1 for r in records if r.simulator_faults)
    note = f" ({flagged} with a simulator fault left out)" if flagged else ""
    err_console.print(f"exported {len(kept)} of {len(records)} attempts{note}", highlight=False)
