"""Every `from statebox... import name` in the source, the tests, the examples and the benchmarks names something
that exists. mypy cannot see this through a lazy facade (its module `__getattr__` answers any name), so a name that
moved out of a facade would pass type checking and fail only when that line runs — often under TYPE_CHECKING, never.
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TREES = ("src/statebox", "tests", "examples", "benchmarks")


def _package_of(path: Path) -> str | None:
    """The dotted package a file under src/ belongs to (for relative imports), or None outside src/."""
    try:
        rel = path.relative_to(ROOT / "src")
    except ValueError:
        return None
    return ".".join(rel.parent.parts)


def absolute(package: str, level: int, module: str | None) -> str:
    """The module `from <level dots><module> import ...` means inside `package` (`__init__`'s package itself)."""
    parts = package.split(".")
    base = parts[: len(parts) - level + 1]
    return ".".join([*base, module] if module else base)


def _catches_import_error(node: ast.Try) -> bool:
    names = {n.id for h in node.handlers if h.type is not None for n in ast.walk(h.type) if isinstance(n, ast.Name)}
    return bool(names & {"ImportError", "ModuleNotFoundError"})


def _import_froms(body: list[ast.stmt], guarded: bool = False) -> Iterator[tuple[ast.ImportFrom, bool]]:
    """Every `from ... import` statement in a body, at any depth of statements (imports are statements, so the
    expressions need no walking), and whether a `try: ... except ImportError` around it allows it to be missing."""
    for node in body:
        if isinstance(node, ast.ImportFrom):
            yield node, guarded
        elif isinstance(node, ast.Try):
            yield from _import_froms(node.body, guarded or _catches_import_error(node))
            for part in (*(h.body for h in node.handlers), node.orelse, node.finalbody):
                yield from _import_froms(part, guarded)
        else:
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    yield from _import_froms(inner, guarded)


def statebox_imports(path: Path) -> list[tuple[int, str, str]]:
    """(line, module, name) for every name a file imports from a statebox module, relative imports resolved;
    imports under `try: ... except ImportError` are left out."""
    text = path.read_text(encoding="utf-8")
    package = _package_of(path)
    if "statebox" not in text and package is None:
        return []
    found = []
    for node, guarded in _import_froms(ast.parse(text, filename=str(path)).body):
        if guarded:
            continue
        module = node.module or ""
        if node.level:
            if package is None:
                continue  # a relative import in tests/ or examples/ is not a statebox module
            module = absolute(package, node.level, node.module)
        if module != "statebox" and not module.startswith("statebox."):
            continue
        found += [(node.lineno, module, alias.name) for alias in node.names if alias.name != "*"]
    return found


@functools.cache
def _top_level_names(file: Path) -> frozenset[str]:
    """The names a module binds at its top level (inside top-level if/try blocks too), read without importing it:
    importing every module would import the optional extras too (openenv-core alone takes seconds)."""
    names: set[str] = set()
    todo = list(ast.parse(file.read_text(encoding="utf-8")).body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.If | ast.Try):
            todo += [*node.body, *node.orelse, *getattr(node, "finalbody", [])]
            todo += [stmt for h in getattr(node, "handlers", []) for stmt in h.body]
    return frozenset(names)


def _source_of(module: str) -> Path | None:
    """The file that defines a statebox module (its .pyi stub for a compiled one), found without importing it."""
    base = ROOT / "src" / Path(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py", base.with_suffix(".pyi")):
        if candidate.exists():
            return candidate
    return None


def _statically_found(module: str, name: str) -> bool:
    origin = _source_of(module)
    if origin is None:
        return False
    if origin.name == "__init__.py" and _source_of(f"{module}.{name}") is not None:
        return True  # a submodule
    return name in _top_level_names(origin)


def unresolved(module: str, name: str) -> str | None:
    """Why `from module import name` would fail, or None when it works."""
    if _source_of(module) is None:
        return f"no module {module}"
    if _statically_found(module, name):
        return None
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name and not e.name.startswith("statebox"):
            return None  # an optional extra this environment lacks; its own tests skip
        return f"no module {module}"
    if hasattr(mod, name):
        return None
    if importlib.util.find_spec(f"{module}.{name}") is not None:
        return None
    return f"{module} has no {name}"


def test_every_statebox_import_names_something_that_exists() -> None:
    broken = []
    checked = 0
    for tree in TREES:
        for path in sorted((ROOT / tree).rglob("*.py")):
            if "scaffold" in path.parts:
                continue
            for line, module, name in statebox_imports(path):
                checked += 1
                why = unresolved(module, name)
                if why:
                    broken.append(f"{path.relative_to(ROOT)}:{line}: from {module} import {name}: {why}")
    assert checked > 500, f"only {checked} imports read: is the walk reading the trees?"
    assert not broken, "\n".join(broken)


def test_a_name_gone_from_a_lazy_facade_is_found(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                       "    from statebox.tasks import NoSuchThing\n", encoding="utf-8")
    [(line, module, name)] = statebox_imports(planted)
    assert (line, module, name) == (3, "statebox.tasks", "NoSuchThing")
    assert unresolved(module, name) == "statebox.tasks has no NoSuchThing"


def test_an_import_that_may_be_missing_on_purpose_is_left_alone(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text("try:\n    from statebox.gone import Old\nexcept ImportError:\n    Old = None\n"
                       "from statebox.gone import Other\n", encoding="utf-8")
    assert statebox_imports(planted) == [(5, "statebox.gone", "Other")]


@pytest.mark.parametrize(("package", "level", "module", "expected"), [
    ("statebox.runner", 1, "store", "statebox.runner.store"),
    ("statebox.runner", 2, "judge", "statebox.judge"),
    ("statebox.runner", 1, None, "statebox.runner"),
    ("statebox.compat.thinkingbox", 3, "tasks", "statebox.tasks"),
])
def test_relative_imports_are_resolved_from_the_file_package(
        package: str, level: int, module: str | None, expected: str) -> None:
    assert absolute(package, level, module) == expected


def test_a_file_under_src_knows_its_package() -> None:
    assert _package_of(ROOT / "src/statebox/runner/episode.py") == "statebox.runner"
    assert _package_of(ROOT / "tests/test_architecture.py") is None
