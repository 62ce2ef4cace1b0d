"""`statebox export`: a run's attempts as training data (chat records, a Parquet table, or DPO preference pairs)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, cast

import typer

from statebox.cli.common import err_console, fail
from statebox.runner.store import RunDir, RunDirError
from statebox.tasks.worlds import discover_domains

FORMATS = ("chat-jsonl", "parquet", "preference")
ONLY = ("passed", "failed", "all")
ARGUMENTS = ("object", "string")


def register(app: typer.Typer) -> None:
    app.command("export")(export)


def export(
    run_dir: Path,
    format: Annotated[str, typer.Option("--format", help=(
        "chat-jsonl; parquet (needs pyarrow: statebox[parquet]; needs --out); or preference (DPO pairs: "
        "prompt, chosen, rejected; one JSON line each)."))] = "chat-jsonl",
    only: Annotated[str, typer.Option(help="Which attempts: passed, failed or all (not with preference).")] = "all",
    arguments: Annotated[str, typer.Option(help=(
        "A tool call's arguments: object (what Hugging Face chat templates expect) or string "
        "(JSON text, the OpenAI wire format)."))] = "object",
    out: Annotated[Path | None, typer.Option(help="File to write (default: standard output).")] = None,
) -> None:
    """Write one line per finished attempt (messages ending on the agent's last turn, tools, reward, verdict,
    task id, domain, model and repeat), or one line per preference pair."""
    from statebox.openenv.chat import Arguments, Only, chat_record, wanted  # loaded by this command only

    _check(format, only, arguments, out)
    run = RunDir(run_dir)
    if not run.exists():
        fail(f"{run_dir}: no trials.jsonl or manifest.json; is this a statebox run directory?")
    try:
        records = run.trials()
    except RunDirError as e:
        fail(str(e))
    domains = discover_domains()
    kept = [r for r in records if wanted(r, cast(Only, only))]
    chats = [chat_record(r, domains.get(r.domain), cast(Arguments, arguments)) for r in kept]
    flagged = sum(1 for r in records if r.simulator_faults)
    note = f" ({flagged} with a simulator fault left out)" if flagged else ""
    if format == "preference":
        from statebox.openenv.preference import preference_pairs

        pairing = preference_pairs(chats)
        _write_lines(pairing.pairs, out)
        err_console.print(f"{pairing.summary()}{note}", highlight=False)
        return
    if format == "parquet":
        _write_parquet(chats, cast(Path, out), cast(Arguments, arguments))
    else:
        _write_lines(chats, out)
    err_console.print(f"exported {len(kept)} of {len(records)} attempts{note}", highlight=False)


def _check(format: str, only: str, arguments: str, out: Path | None) -> None:
    if format not in FORMATS:
        fail(f"--format {format!r}: expected one of {', '.join(FORMATS)}")
    if only not in ONLY:
        fail(f"--only {only!r}: expected passed, failed or all")
    if arguments not in ARGUMENTS:
        fail(f"--arguments {arguments!r}: expected object or string")
    if format == "parquet" and out is None:
        fail("--format parquet needs --out FILE")
    if format == "preference" and only != "all":
        fail("--format preference pairs passing with failing attempts; --only does not apply")


def _write_lines(rows: list[dict[str, Any]], out: Path | None) -> None:
    text = "".join(json.dumps(row, ensure_ascii=False, default=str) + "\n" for row in rows)
    if out is None:
        sys.stdout.write(text)
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")


def _write_parquet(chats: list[dict[str, Any]], out: Path, arguments: Any) -> None:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        fail("--format parquet needs pyarrow: pip install 'statebox[parquet]'")
    from statebox.openenv.parquet import write_parquet

    write_parquet(chats, out, arguments)
