"""Helpers shared by the CLI commands: loading suites with clear errors, printing JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NoReturn

import typer
import yaml
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from statebox.tasks import Suite, TaskFileError, load_suite

err_console = Console(stderr=True, soft_wrap=True)


def fail(message: str, code: int = 2) -> NoReturn:
    err_console.print(f"[bold red]error:[/] {message}", highlight=False)
    raise typer.Exit(code)


def open_suite(name: str, patterns: list[str] | None = None, test_list: Path | None = None) -> Suite:
    """Load a suite and select its tasks, turning bad input into a one-line error."""
    try:
        suite = load_suite(name)
        ids = _read_test_list(test_list) if test_list else None
        return check_patterns(suite.select(patterns, ids), patterns)
    except (LookupError, TaskFileError) as e:
        fail(str(e).strip("'\""))


def check_patterns(selected: Suite, patterns: list[str] | None) -> Suite:
    """Refuse a selection that is empty, naming the patterns that matched nothing."""
    if not selected.tasks:
        pats = ", ".join(repr(p) for p in patterns or []) or "(none)"
        fail(f"no task of suite {selected.name!r} matches --tasks {pats}; see `statebox tasks {selected.name}`")
    return selected


def _read_test_list(path: Path) -> list[str]:
    try:
        items = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as e:
        fail(f"{path}: cannot read the test list: {e}")
    if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
        fail(f"{path}: a test list is a YAML list of task ids")
    return items


def task_progress(label: str, *, disabled: bool = False) -> Progress:
    """A transient progress bar on stderr for work over tasks (validation)."""
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
        disable=disabled,
    )


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")
