"""Suite providers: every suite comes from a registered provider, and the command line only asks them.

The providers are the installed `statebox.suites` entry points (pyproject.toml), loaded for real.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import statebox
from statebox.cli import app
from statebox.compat.thinkingbox import ThinkingBoxBench
from statebox.suites import load_suite
from statebox.suites.builtin import BuiltinSuites
from statebox.suites.provider import SuiteError, provider_for, suite_providers

PACKAGE = Path(statebox.__file__).parent


def _cli(*args: str) -> tuple[int, str, str]:
    done = CliRunner(env={"COLUMNS": "200"}).invoke(app, list(args))
    return done.exit_code, done.stdout, done.stderr


def test_built_in_domains_and_thinkingbox_bench_register_as_entry_points() -> None:
    kinds = {type(p) for p in suite_providers()}
    assert {BuiltinSuites, ThinkingBoxBench} <= kinds, kinds


def test_suites_json_lists_every_suite_with_the_task_count_its_provider_gives() -> None:
    code, out, err = _cli("suites", "--json")
    assert code == 0, err
    listed = {row["suite"]: row for row in json.loads(out)}
    expected = {info.name: info.tasks for p in suite_providers() for info in p.catalog()}
    assert {name: row["tasks"] for name, row in listed.items()} == expected
    domains = [name for name, row in listed.items() if name != "builtin" and row["needs"] == []]  # the built-in ones
    assert domains and all(listed[d]["tasks"] == len(load_suite(d).tasks) for d in domains)
    assert listed["builtin"]["tasks"] == sum(listed[d]["tasks"] for d in domains)


def test_thinkingbox_bench_is_listed_as_needing_data_with_no_count() -> None:
    _, out, _ = _cli("suites", "--json")
    [row] = [row for row in json.loads(out) if row["suite"] == "thinkingbox-bench"]
    assert (row["tasks"], row["needs"]) == (None, ["--data"])
    code, table, _ = _cli("suites")
    assert code == 0 and "? (needs --data)" in table, table


def test_an_unknown_suite_is_refused_naming_the_suites_there_are() -> None:
    providers = suite_providers()
    with pytest.raises(SuiteError) as refused:
        provider_for("nosuch", providers)
    for name in ("builtin", "retail", "thinkingbox-bench"):
        assert name in str(refused.value)


def test_a_provider_option_appears_only_on_the_commands_it_is_declared_for() -> None:
    _, run_help, _ = _cli("run", "--help")
    _, tasks_help, _ = _cli("tasks", "--help")
    assert "--server-python" in run_help and "--data" in run_help
    assert "--data" in tasks_help and "--server-python" not in tasks_help


def test_an_option_of_another_provider_is_a_one_line_error() -> None:
    code, _, err = _cli("tasks", "retail", "--data", "/tmp")
    owners = "tau-bench:airline, tau-bench:retail, tau-bench:retail:dev, tau-bench:retail:train, thinkingbox-bench"
    assert code == 2 and err.strip() == f"error: --data is only for {owners}; not for 'retail'", err


def _imports(path: Path) -> list[str]:
    """Modules a file imports, at load time or inside functions (imports under `if TYPE_CHECKING:` aside)."""
    found: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            return
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text()))
    return found


def test_the_command_line_imports_no_compat_module_and_names_no_suite() -> None:
    names = {n for p in suite_providers() for n in p.names()}
    offences = []
    for path in sorted((PACKAGE / "cli").glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            module = node.module if isinstance(node, ast.ImportFrom) else None
            if module and module.startswith("statebox.compat"):
                offences.append(f"{path.name}:{node.lineno} imports {module}")
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
                offences.append(f"{path.name}:{node.lineno} names suite {node.value!r}")
    assert offences == []


def test_thinkingbox_bench_modules_import_each_other_without_a_cycle() -> None:
    folder = PACKAGE / "compat" / "thinkingbox"
    prefix = "statebox.compat.thinkingbox."
    graph = {
        path.stem: [m.removeprefix(prefix) for m in _imports(path) if m.startswith(prefix)]
        for path in folder.glob("*.py")
        if path.stem != "__init__"
    }

    def cycle_from(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        for imported in graph.get(module, []):
            if (found := cycle_from(imported, [*path, module])) is not None:
                return found
        return None

    cycles = [c for m in graph if (c := cycle_from(m, [])) is not None]
    assert cycles == [], " -> ".join(cycles[0])
