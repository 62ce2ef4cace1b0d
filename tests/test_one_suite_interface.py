"""Every suite, built-in or not, is asked through the one `TaskSet` interface (#32 item 1): nothing in src/ asks
which kind of suite, attempt source or backend it holds.

A suite kind is a class that is (by its bases, transitively) a `TaskSet`, a `TaskWorlds` (what a built-in suite
is made of), an `AttemptSource` or an `AttemptBackend`, or any class declaring `attempt_source` (a protocol
too). Dispatch is `isinstance`/`issubclass` against one of them, or `hasattr`/`getattr` probing a suite, source
or backend for a name. A benchmark's own package (`compat/<name>/`) may narrow its own types (ThinkingBox-Bench's
validation asserts its source made a `TbBackend`); nothing else may. On the tree before #32 this finds 12.
"""

from __future__ import annotations

import ast
import functools
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import statebox

SRC = Path(statebox.__file__).parent
ROOTS = frozenset({"TaskSet", "TaskWorlds", "AttemptSource", "AttemptBackend"})
PROBES = frozenset({"hasattr", "getattr"})
PROBED = ("suite", "source", "backend")  # a probe's first argument naming one of these is dispatch on its kind


@functools.cache
def nodes_of(text: str) -> tuple[ast.AST, ...]:
    """Every node of a file's tree (read-only; cached, so the planted copies parse only what they change)."""
    return tuple(ast.walk(ast.parse(text)))


def python_only(folder: str, names: list[str]) -> set[str]:
    """For `shutil.copytree`: leave out what no check reads (data, caches, built extensions)."""
    return {n for n in names if (not n.endswith(".py") and not (Path(folder) / n).is_dir()) or n == "__pycache__"}


def _named(node: ast.expr) -> str | None:
    """The class name an expression names: `X`, `mod.X`, `X[T]`."""
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else None


def suite_kinds(root: Path) -> dict[str, Path]:
    """Every suite kind under `root`, with the package folder it is defined in."""
    classes: dict[str, tuple[set[str], Path]] = {}
    kinds: dict[str, Path] = {}
    for path in root.rglob("*.py"):
        for node in nodes_of(path.read_text(encoding="utf-8")):
            if isinstance(node, ast.ClassDef):
                bases = {name for base in node.bases if (name := _named(base)) is not None}
                classes[node.name] = (bases, path.parent)
                if node.name in ROOTS or any(getattr(d, "name", None) == "attempt_source" for d in node.body):
                    kinds[node.name] = path.parent
    grown = True
    while grown:
        grown = False
        for name, (bases, folder) in classes.items():
            if name not in kinds and bases & set(kinds):
                kinds[name] = folder
                grown = True
    return kinds


def _checked_classes(call: ast.Call) -> list[str]:
    if len(call.args) != 2:
        return []
    second = call.args[1]
    parts = second.elts if isinstance(second, ast.Tuple) else [second]
    return [name for part in parts if (name := _named(part)) is not None]


def _own(path: Path, defined_in: Path, root: Path) -> bool:
    """A check in the benchmark package that defines the class it checks against."""
    return defined_in.is_relative_to(root / "compat") and path.is_relative_to(defined_in)


def dispatches(root: Path) -> Iterator[str]:
    """`path:line: what` for every dispatch on a suite kind under `root`."""
    kinds = suite_kinds(root)
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        for node in nodes_of(path.read_text(encoding="utf-8")):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            called = node.func.id
            if called in ("isinstance", "issubclass"):
                foreign = [n for n in _checked_classes(node) if n in kinds and not _own(path, kinds[n], root)]
                if foreign:
                    yield f"{where}:{node.lineno}: {ast.unparse(node)}"
            elif called in PROBES and node.args and any(word in ast.unparse(node.args[0]).lower() for word in PROBED):
                yield f"{where}:{node.lineno}: {ast.unparse(node)}"


def test_nothing_in_the_source_asks_which_kind_of_suite_it_has() -> None:
    found = list(dispatches(SRC))
    assert not found, "dispatch on suite kinds (ask a TaskSet, AttemptSource or AttemptBackend method):\n" + "\n".join(
        found
    )


def test_the_suite_kinds_are_every_suite_source_and_backend() -> None:
    kinds = suite_kinds(SRC)
    expected = {"Suite", "TbSuite", "TauSuite", "WorldSource", "TbSource", "TauSource", "WorldBackend", "TbBackend",
                "TauBackend"}
    assert expected <= set(kinds), sorted(expected - set(kinds))


PLANTED = [
    ("offline/planted.py", "from statebox.suites import Suite\ndef f(s):\n    return isinstance(s, Suite)\n"),
    ("runner/planted.py", "from statebox.tasks.worlds import TaskWorlds\ndef f(s):\n"
                          "    return isinstance(s, (int, TaskWorlds))\n"),
    ("openenv/planted.py", "from statebox.runner import backend\ndef f(b):\n"
                           "    return isinstance(b, backend.WorldBackend)\n"),
    ("cli/planted.py", "def f(suite):\n    return hasattr(suite, 'attempt_source')\n"),
    ("runner/planted.py", "def f(self):\n    return getattr(self.suite, 'domains', None)\n"),
    ("compat/planted.py", "from statebox.compat.thinkingbox.suite import TbSuite\ndef f(s):\n"
                          "    return issubclass(s, TbSuite)\n"),
    ("runner/planted.py", "from typing import Protocol\nclass Runs(Protocol):\n    def attempt_source(self): ...\n"
                          "def f(s):\n    return isinstance(s, Runs)\n"),
]


@pytest.mark.parametrize(("file", "source"), PLANTED, ids=[f"{f}:{s.splitlines()[-1].strip()}" for f, s in PLANTED])
def test_a_planted_dispatch_is_found(tmp_path: Path, file: str, source: str) -> None:
    copy = tmp_path / "statebox"
    shutil.copytree(SRC, copy, ignore=python_only)
    (copy / file).write_text(source, encoding="utf-8")
    found = list(dispatches(copy))
    assert [line.split(":")[0] for line in found] == [file], found


def test_a_suites_own_package_may_narrow_its_own_types(tmp_path: Path) -> None:
    copy = tmp_path / "statebox"
    shutil.copytree(SRC, copy, ignore=python_only)
    own = "from statebox.compat.thinkingbox.backend import TbBackend\ndef f(b):\n    assert isinstance(b, TbBackend)\n"
    (copy / "compat/thinkingbox/planted.py").write_text(own, encoding="utf-8")
    assert list(dispatches(copy)) == []
