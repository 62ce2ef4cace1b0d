"""`statebox.private_api.require`: a private name another package no longer has stops statebox with one line
naming the package, its version and what is missing."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest

from statebox.private_api import PrivateApiChanged, exists, require

SRC = Path(__file__).resolve().parents[1] / "src" / "statebox"


class Upstream:
    def method(self) -> None: ...

    table: dict[str, object] = {}  # noqa: RUF012 - a stand-in for another package's class


def test_names_that_are_there_pass() -> None:
    require(Upstream, ("method",), distribution="pytest", needed_by="statebox.x")
    require(Upstream, ("table",), distribution="pytest", needed_by="statebox.x", present=exists)


def test_a_missing_name_is_one_line_naming_the_package_version_the_class_and_the_user() -> None:
    with pytest.raises(PrivateApiChanged) as raised:
        require(Upstream, ("method", "gone", "also_gone"), distribution="pytest", needed_by="statebox.x")
    message = str(raised.value)
    expected = (f"error: statebox.x needs {__name__}.Upstream.gone/also_gone, which pytest "
                f"{metadata.version('pytest')} does not have")
    assert message.startswith(expected), message
    assert "\n" not in message


def test_a_name_that_fails_its_check_counts_as_missing_and_an_instance_is_named_by_its_class() -> None:
    with pytest.raises(PrivateApiChanged, match=r"Upstream\.table, which"):
        require(Upstream(), ("table",), distribution="pytest", needed_by="statebox.x")  # not callable


def test_a_package_not_installed_is_said_so() -> None:
    with pytest.raises(PrivateApiChanged, match=r"no-such-dist \(not installed\) does not have"):
        require(Upstream, ("gone",), distribution="no-such-dist", needed_by="statebox.x")


def test_uncaught_it_ends_the_process_with_exit_code_1() -> None:
    error = PrivateApiChanged("error: one line")
    assert isinstance(error, SystemExit) and str(error) == "error: one line"


# Each private name of another package, and the one module allowed to use it (the wrapper that checks it).
WRAPPED = {
    "openenv/upstream.py": {"_sessions", "_destroy_session", "_ws", "_ws_url", "_connect_timeout", "_max_message_size"},
    "mcp/http_serving.py": {"capture_signals"},
    "mcp/slow_clients.py": {"H11Protocol", "h11_impl"},
}


def used_names(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, name) of every attribute read or set, imported name and method (an override) in `tree`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            yield node.lineno, node.attr
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [getattr(node, "module", None) or "", *(alias.name for alias in node.names)]
            yield from ((node.lineno, part) for module in modules for part in module.split("."))
        elif isinstance(node, ast.ClassDef):
            methods = (n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
            yield from ((method.lineno, method.name) for method in methods)


def test_each_private_name_is_used_only_in_its_wrapper() -> None:
    elsewhere = []
    for path in sorted(SRC.rglob("*.py")):
        relative = path.relative_to(SRC).as_posix()
        barred = set().union(*(names for wrapper, names in WRAPPED.items() if wrapper != relative))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        elsewhere += [f"{relative}:{line} uses {name}" for line, name in used_names(tree) if name in barred]
    assert not elsewhere, "another package's private name outside its wrapper:\n" + "\n".join(elsewhere)
