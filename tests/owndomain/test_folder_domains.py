"""A domain folder is opened by its path wherever a suite is named; its modules are its own; a folder that is not a
domain is one line naming the folder and the missing file (or the line of its own code that failed)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from owndomain_kit import NAME, statebox
from typer.testing import CliRunner

from statebox.cli import app
from statebox.folders.folder import PACKAGE_PREFIX, DomainFolderError, load_folder_domain, package_name
from statebox.folders.scaffold import write_scaffold


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, f"expected one line, got:\n{text}"
    return lines[0]


def test_a_folder_without_domain_py_is_one_line_naming_the_folder_and_the_file(tmp_path: Path) -> None:
    (tmp_path / "tasks").mkdir()
    code, said = cli("validate", str(tmp_path))
    assert code == 2 and one_line(said) == f"error: {tmp_path}: not a domain folder: no domain.py " \
        "(`statebox new-domain NAME DIR` writes one)", said


def test_a_missing_folder_is_one_line_naming_it(tmp_path: Path) -> None:
    code, said = cli("tasks", str(tmp_path / "nope"))
    assert code == 2 and one_line(said) == f"error: {tmp_path / 'nope'}: no such folder", said


def test_an_error_in_the_domains_own_code_names_the_file_and_line(tmp_path: Path) -> None:
    write_scaffold(NAME, tmp_path / "d")
    tools = tmp_path / "d" / "tools.py"
    tools.write_text(tools.read_text().replace("PRICES = {", "PRICES = 1 / 0\nPRICES = {"))
    code, said = cli("run", str(tmp_path / "d"), "--agent", "reference", "--out", str(tmp_path / "run"))
    line = one_line(said)
    assert code == 2 and line.startswith(f"error: {tmp_path / 'd' / 'domain.py'}: cannot load the domain: "), said
    assert line.endswith("ZeroDivisionError: division by zero (tools.py line 9)"), said
    assert not any(name.startswith(package_name((tmp_path / "d").resolve())) for name in sys.modules), \
        "a folder that failed to load left modules behind"


def test_a_domain_py_without_domain_says_so(tmp_path: Path) -> None:
    (tmp_path / "domain.py").write_text("X = 1\n")
    with pytest.raises(DomainFolderError, match=r"domain\.py: defines no DOMAIN"):
        load_folder_domain(tmp_path)


def test_two_folders_with_the_same_module_names_keep_their_own_tools(tmp_path: Path) -> None:
    write_scaffold("first", tmp_path / "a")
    write_scaffold("second", tmp_path / "b")
    tools_b = tmp_path / "b" / "tools.py"
    tools_b.write_text(tools_b.read_text().replace("def get_member(", "def look_up_member(").replace(
        "TOOLS = [get_member,", "TOOLS = [look_up_member,"))
    before = set(sys.modules)
    a, b = load_folder_domain(tmp_path / "a"), load_folder_domain(tmp_path / "b")
    assert ("get_member" in a.tools.names, "look_up_member" in b.tools.names) == (True, True)
    assert "get_member" not in b.tools.names
    added = set(sys.modules) - before
    assert added and all(name.startswith(PACKAGE_PREFIX) for name in added), sorted(added)
    assert {"tools", "seed", "domain"}.isdisjoint(sys.modules), "a folder's modules were imported by their bare names"


def test_a_built_in_suite_wins_over_a_folder_of_the_same_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "retail").mkdir()  # not a domain: opening it would fail
    monkeypatch.chdir(tmp_path)
    code, said = cli("tasks", "retail", "--json")
    assert code == 0 and json.loads(said)["suite"] == "retail", said[:300]


def test_show_reopens_a_folder_run_from_anywhere(scaffold: Path, tmp_path: Path) -> None:
    made = statebox("run", "./acme", "--agent", "noop", "--out", str(tmp_path / "run"), cwd=scaffold.parent)
    assert made.returncode == 0, made.stderr
    assert json.loads((tmp_path / "run" / "manifest.json").read_text())["suite"] == str(scaffold.resolve())
    shown = statebox("show", str(tmp_path / "run"), "upgrade_basic_to_plus", cwd=tmp_path)
    assert shown.returncode == 0 and "members[MEM-9001]" in shown.stdout, shown.stdout[-1500:] + shown.stderr


def test_blind_review_works_on_a_folder(scaffold: Path) -> None:
    code, said = cli("review", str(scaffold), "upgrade_basic_to_plus", "--blind")
    assert code == 0 and "task: upgrade_basic_to_plus" in said and "change_plan" not in said, said[-1500:]


def test_a_bug_in_a_tool_is_one_line_naming_the_file_line_and_task_in_validate_and_run(tmp_path: Path) -> None:
    write_scaffold(NAME, tmp_path / "d")
    tools = tmp_path / "d" / "tools.py"
    tools.write_text(tools.read_text().replace("if PRICES[plan] >", "if PRICE[plan] >"))
    bug = f"{tools.resolve()} line 39"
    checked = statebox("validate", str(tmp_path / "d"))
    assert checked.returncode == 2 and one_line(checked.stderr) == (
        f"error: {bug}: task 'downgrade_family_to_basic_with_balance': NameError: name 'PRICE' is not defined"
    ), checked.stderr
    ran = statebox("run", str(tmp_path / "d"), "--agent", "reference", "--out", str(tmp_path / "run"))
    assert ran.returncode == 2 and one_line(ran.stderr) == f"error: {bug}: NameError: name 'PRICE' is not defined", (
        ran.stderr
    )


def test_a_name_that_is_neither_a_suite_nor_a_folder_is_an_unknown_suite(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, said = cli("tasks", "acme_support")
    assert code == 2 and one_line(said).startswith("error: unknown suite 'acme_support'; available: "), said
    assert said.strip().endswith("or a domain folder's path"), said
