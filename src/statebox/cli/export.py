"""`statebox export`: a run's attempts as training data (the OpenAI chat format with tools, one line each)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, cast

import typer

from statebox.cli.common import err_console, fail
from statebox.runner.store import RunDir, RunDirError
from statebox.tasks import discover_domains

FORMATS = ("chat-jsonl", "parquet")
ONLY = ("passed", "failed", "all")


def register(app: typer.Typer) -> None:
    app.command("export")(export)


def export(
    run_dir: Path,
    format: Annotated[
        str, typer.Option("--format", help="chat-jsonl, or parquet (needs pyarrow: statebox[parquet]; needs --out).")
    ] = "chat-jsonl",
    only: Annotated[str, typer.Option(help="Which attempts: passed, failed or all.")] = "all",
    out: Annotated[Path | None, typer.Option(help="File to write (default: standard output).")] = None,
) -> None:
    """Write one line per finished attempt: messages (system, user, assistant tool calls, tool results),
    tools, reward, verdict, task id, domain, model and repeat."""
    from statebox.openenv.chat import Only, chat_record, wanted  # the openenv package: loaded by this command only

    if format not in FORMATS:
        fail(f"--format {format!r}: expected one of {', '.join(FORMATS)}")
    if only not in ONLY:
        fail(f"--only {only!r}: expected passed, failed or all")
    if format == "parquet" and out is None:
        fail("--format parquet needs --out FILE")
    run = RunDir(run_dir)
    if not run.exists():
        fail(f"{run_dir}: no trials.jsonl or manifest.json; is this a statebox run directory?")
    try:
        records = run.trials()
    except RunDirError as e:
        fail(str(e))
    domains = discover_domains()
    kept = [r for r in records if wanted(r, cast(Only, only))]
    chats = [chat_record(r, domains.get(r.domain)) for r in kept]
    if format == "parquet":
        _write_parquet(chats, cast(Path, out))
    else:
        text = "".join(json.dumps(c, ensure_ascii=False, default=str) + "\n" for c in chats)
        if out is None:
            sys.stdout.write(text)
        else:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(text, encoding="utf-8")
    flagged = sum(1 for r in records if r.simulator_faults)
    note = f" ({flagged} with a simulator fault left out)" if flagged else ""
    err_console.print(f"exported {len(kept)} of {len(records)} attempts{note}", highlight=False)


def _write_parquet(chats: list[dict[str, Any]], out: Path) -> None:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        fail("--format parquet needs pyarrow: pip install 'statebox[parquet]'")
    from statebox.openenv.parquet import write_parquet

    write_parquet(chats, out)
