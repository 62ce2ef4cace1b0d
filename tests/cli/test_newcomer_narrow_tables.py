"""In an 80-column terminal `tasks` and `validate` never cut a task id: other columns fold or are left out."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from statebox.cli import app
from statebox.suites import load_suite
from statebox.tasks.worlds import discover_domains

DOMAINS = sorted(discover_domains())


def _at_80(*args: str) -> tuple[int, list[str]]:
    result = CliRunner(env={"COLUMNS": "80", "LINES": None}).invoke(app, list(args))
    return result.exit_code, result.stdout.splitlines()


@pytest.mark.parametrize("suite", DOMAINS)
def test_tasks_at_80_columns_shows_every_id_whole_on_one_line(suite: str) -> None:
    ids = [t.id for t in load_suite(suite).tasks]
    code, lines = _at_80("tasks", suite)
    assert code == 0, lines
    assert max(len(line) for line in lines) <= 80, [line for line in lines if len(line) > 80]
    cut = [i for i in ids if not any(f" {i} " in line for line in lines)]
    assert not cut, cut


@pytest.mark.parametrize("suite", DOMAINS)
def test_validate_at_80_columns_shows_the_longest_id_whole(suite: str) -> None:
    longest = max((t.id for t in load_suite(suite).tasks), key=len)
    code, lines = _at_80("validate", suite, "--tasks", longest)
    assert code == 0, lines
    assert any(f" {longest} " in line for line in lines), lines
    assert max(len(line) for line in lines) <= 80, lines


def test_a_wide_terminal_keeps_every_column() -> None:
    result = CliRunner(env={"COLUMNS": "250", "LINES": None}).invoke(app, ["tasks", "retail"])
    header = next(line for line in result.stdout.splitlines() if " id " in line)
    assert all(f" {c} " in header for c in ("domain", "writes", "facts", "tags")), header
    assert "left out" not in result.stdout, result.stdout[-300:]
