"""Helpers shared by the CLI commands: one-line errors, loading a built-in suite, printing JSON and tables."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from statebox.runner.taskset import Cell, Listing
from statebox.tools.quoting import message_of

if TYPE_CHECKING:
    from statebox.suites import Suite

err_console = Console(stderr=True, soft_wrap=True)


def fail(message: str, code: int = 2) -> NoReturn:
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    raise typer.Exit(code)


def warn(message: str) -> None:
    err_console.print(f"[yellow]warning:[/] {escape(message)}", highlight=False)


def open_suite(name: str) -> Suite:
    """A suite on statebox's own world (demo, fake-model, review): a built-in one, or a domain folder by its path;
    else a one-line error."""
    from statebox.folders.folder import DomainFolderError, is_folder_name, load_folder_suite
    from statebox.suites import load_suite
    from statebox.suites.builtin import ALL_DOMAINS
    from statebox.tasks import TaskFileError, domain_names

    try:
        if is_folder_name(name) and name not in [*domain_names(), ALL_DOMAINS]:
            return load_folder_suite(name)
        return load_suite(name)
    except (LookupError, TaskFileError, DomainFolderError) as e:
        fail(message_of(e))


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


def print_listing(listing: Listing, console: Console) -> None:
    """A provider's table, then its notes (e.g. the tasks left out, with why).

    The first column (the ids) is never cut; when the terminal is too narrow for every column,
    columns are left out from the right (the last, free-text one last) and a note says which.
    """
    shown = list(range(len(listing.columns)))
    table = _table(listing, shown)
    while len(shown) > 1 and _narrowest(listing, shown) > console.width:
        shown.pop(-2 if len(shown) > 2 else -1)
        table = _table(listing, shown)
    console.print(table)
    if len(shown) < len(listing.columns):
        left_out = ", ".join(c for i, c in enumerate(listing.columns) if i not in shown)
        console.print(f"[dim]left out at {console.width} columns: {escape(left_out)} (wider terminal, or --json)[/]")
    for note in listing.notes:
        console.print(f"[yellow]{escape(note.label)}[/] {escape(note.text)}", highlight=False, soft_wrap=True)


def _narrowest(listing: Listing, shown: list[int]) -> int:
    """The table's width with every column but the last (folded to its minimum) at full width."""
    widths = [_width(listing, i) if i != shown[-1] or i == 0 else _last_width(listing, i) for i in shown]
    return sum(widths) + 3 * len(widths) + 1  # a space either side of each cell, and the borders


def _width(listing: Listing, column: int) -> int:
    return max([len(listing.columns[column]), *(len(_plain(row[column])) for row in listing.rows)])


def _last_width(listing: Listing, column: int) -> int:
    """The free-text column folds, but no narrower than its header or 12 characters."""
    return max(len(listing.columns[column]), min(12, _width(listing, column)))


def _plain(value: Cell) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "NO"
    return str(value)


def _table(listing: Listing, shown: list[int]) -> Table:
    table = Table(title=listing.title)
    last = shown[-1]
    for i in shown:
        name = listing.columns[i]
        if i == last and i != 0:
            table.add_column(name, overflow="fold", min_width=_last_width(listing, i))
        else:
            table.add_column(name, no_wrap=True, min_width=len(name))
    for row in listing.rows:
        table.add_row(*(_cell(row[i]) for i in shown))
    return table


def _cell(value: Cell) -> str:
    if value is None:
        return "[dim]n/a[/]"
    if isinstance(value, bool):
        return "[green]yes[/]" if value else "[red]NO[/]"
    return escape(str(value))
