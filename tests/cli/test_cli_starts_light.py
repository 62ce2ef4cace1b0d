"""The CLI answers at once: help, suites and one suite's tasks import only what they print (#31 item 8).

Times are measured by benchmarks/bench_cli_start.py; these tests pin the causes: which modules a
command imports, and that the shortcuts (the command table, the suites index) say what the slow
way would.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from statebox.cli import COMMANDS, app, module_commands
from statebox.suites import load_suite
from statebox.tasks.index import (
    builtin_domain_names,
    counted_builtins,
    current_line,
    index_document,
    index_path,
    read_index,
)

HEAVY = ("statebox.runner.campaign", "statebox.judge.validation", "statebox.report.aggregate",
         "statebox.mcp.http_serving", "aiohttp", "genai_prices", "uvicorn")


def imported_by(*argv: str) -> set[str]:
    """The modules `statebox ARGV` has imported when it exits (run in a fresh interpreter)."""
    code = (
        "import sys, atexit, json\n"
        "atexit.register(lambda: print('\\nMODULES ' + json.dumps(sorted(sys.modules)), file=sys.stderr))\n"
        "from statebox.cli import main\n"
        f"sys.argv = ['statebox', *{list(argv)!r}]\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    line = next(ln for ln in done.stderr.splitlines() if ln.startswith("MODULES "))
    return set(json.loads(line.removeprefix("MODULES ")))


def test_the_command_table_says_what_each_command_registers() -> None:
    registered: dict[str, str] = {}
    for module in sorted({m for m, _ in COMMANDS.values()}):
        for name, command in module_commands(module).items():
            registered[name] = module
            first_paragraph = " ".join((command.help or "").split("\n\n")[0].split())
            said = COMMANDS[name][1]
            assert said == first_paragraph, f"{name}: the table says {said!r}, its help {first_paragraph!r}"
    assert registered == {name: module for name, (module, _) in COMMANDS.items()}


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["suites"]])
def test_listing_commands_import_no_runner_judge_report_or_http(argv: list[str]) -> None:
    heavy = sorted(m for m in imported_by(*argv) if m.startswith(HEAVY))
    assert heavy == [], f"statebox {' '.join(argv)} imported {heavy}"


def test_suites_imports_no_domain_while_the_index_is_current() -> None:
    domains = sorted(m for m in imported_by("suites") if m.startswith("statebox.domains."))
    assert domains == [], f"statebox suites imported {domains}"


def test_one_suite_imports_only_its_own_domain() -> None:
    domains = {m.split(".")[2] for m in imported_by("tasks", "retail") if m.startswith("statebox.domains.")}
    assert domains == {"retail"}


def test_the_index_is_current_for_every_built_in_domain() -> None:
    lines = read_index()
    stale = [name for name in builtin_domain_names() if current_line(name, lines) is None]
    assert stale == [], f"domains/index.json is stale for {stale}: run `python -m statebox.tasks.index`"
    assert index_document(counted_builtins()) == json.loads(index_path().read_text()), "index differs from a recount"


def test_a_built_in_domain_keeps_its_tasks_where_the_index_reads_them() -> None:
    for name in builtin_domain_names():
        domain = load_suite(name).domains[name]
        assert domain.task_dir == index_path().parent / name / "tasks", f"{name}: tasks in {domain.task_dir}"


def test_a_stale_line_is_never_used(tmp_path: Path) -> None:
    doc = json.loads(index_path().read_text())
    doc["domains"]["retail"] = {**doc["domains"]["retail"], "tasks": 1, "digest": "0" * 64}
    stale = tmp_path / "index.json"
    stale.write_text(json.dumps(doc))
    assert current_line("retail", read_index(stale)) is None
    assert current_line("travel", read_index(stale)) is not None


def test_an_unreadable_index_is_no_index(tmp_path: Path) -> None:
    (tmp_path / "index.json").write_text("{not json")
    assert read_index(tmp_path / "index.json") == {}
    (tmp_path / "v0.json").write_text(json.dumps({"version": 0, "domains": {}}))
    assert read_index(tmp_path / "v0.json") == {}


def test_suites_counts_equal_the_loaded_suites() -> None:
    from typer.testing import CliRunner

    out = CliRunner().invoke(app, ["suites", "--json"])
    assert out.exit_code == 0, out.output
    counts = {row["suite"]: row["tasks"] for row in json.loads(out.output)}
    for name in builtin_domain_names():
        assert counts[name] == len(load_suite(name).tasks), name


def test_version_is_the_installed_distributions() -> None:
    from importlib.metadata import version

    done = subprocess.run([sys.executable, "-m", "statebox.cli", "--version"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"statebox {version('statebox')}"


@pytest.mark.parametrize(("argv", "line"), [
    (["--bogus"], "error: No such option: --bogus"),
    (["sute"], "error: No such command 'sute'. Did you mean 'suites'?"),
    (["run", "--bogus"], "error: No such option: --bogus"),
])
def test_a_usage_error_anywhere_is_one_line(argv: list[str], line: str) -> None:
    done = subprocess.run([sys.executable, "-m", "statebox.cli", *argv], capture_output=True, text=True)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(line), done.stderr


def test_the_usage_error_wrapper_refuses_a_typer_without_one() -> None:
    from statebox.cli.usage_error import UsageError, find_usage_error

    assert issubclass(typer.BadParameter, UsageError)

    class Elsewhere(Exception):
        pass

    with pytest.raises(SystemExit, match=r"^error: statebox needs click's UsageError.*typer \d"):
        find_usage_error(Elsewhere)
