"""Read a benchmark test file with `ast`, never importing or running it.

Everything a task needs is data: `\"\"\"!` strings holding YAML, at module level (defaults for
the file) and as a function's first statement (the task). The function body is only
inspected for which checks it calls: `validate_database(x)` (and `validate_rubrics_yesno(x,
judge)`), or else its own Python over `x.effects`, a custom check (run only in a sandbox, see
`custom_check`).
"""

from __future__ import annotations

import ast
import inspect
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from statebox.compat.thinkingbox.checkout_files import SAFE_LOADER
from statebox.compat.thinkingbox.errors import TbFormatError
from statebox.compat.thinkingbox.models import Check

MARK = "!"
DATABASE_CHECK = "validate_database"
RUBRICS_CHECK = "validate_rubrics_yesno"
_CHECK_NAMES = {DATABASE_CHECK: "database", RUBRICS_CHECK: "rubrics_yesno"}
CUSTOM_PARAMS = ("x", "judge")
CUSTOM_PARAMS_TEXT = "x (the effects) and judge"
_EXPECTED = f"{DATABASE_CHECK}(x), optionally followed by {RUBRICS_CHECK}(x, judge)"


@dataclass(frozen=True)
class TaskFunction:
    """A function whose first statement is a `\"\"\"!` string: one task."""

    name: str
    lineno: int
    spec: dict[str, Any]  # its own YAML, not yet merged with the file's defaults
    checks: tuple[Check, ...]  # empty for a custom check and when the body is unsupported
    unsupported: str | None  # why the function cannot be run as a task
    custom: bool = False  # the body is its own check over `x` (and `judge`): a custom check


@dataclass
class ParsedTestFile:
    """The data of one test file; a task function's YAML is read when that function is first asked for, so a
    run of a few tasks reads only theirs (a test file holds up to about a hundred)."""

    path: Path
    where: str  # how messages name the file
    defaults: dict[str, Any]
    nodes: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]  # the functions with a marked docstring
    _functions: dict[str, TaskFunction] = field(default_factory=dict)

    def function(self, name: str) -> TaskFunction | None:
        """The task function `name`, or None when the file has no such task function."""
        if name not in self._functions:
            node = self.nodes.get(name)
            if node is None:
                return None
            self._functions[name] = _task_function(node, self.where)
        return self._functions[name]


def parse_test_file(path: Path, label: str | None = None) -> ParsedTestFile:
    """Parse `path`; errors name `label` (default: the path) and the line."""
    where = label or str(path)
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except SyntaxError as exc:
        raise TbFormatError(f"{where}: not valid Python (line {exc.lineno}): {exc.msg}") from exc
    except OSError as exc:
        raise TbFormatError(f"{where}: cannot be read ({exc})") from exc
    defaults: dict[str, Any] = {}
    nodes: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    for node in tree.body:
        text = _marked_string(node)
        if text is not None:
            defaults.update(load_yaml_block(text, f"{where} (module docstring, line {node.lineno})"))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.body and _marked_string(node.body[0]):
            nodes[node.name] = node
    return ParsedTestFile(path=path, where=where, defaults=defaults, nodes=nodes)


def load_yaml_block(text: str, where: str) -> dict[str, Any]:
    """The YAML of a `\"\"\"!` string (the mark removed, indentation cleaned) as a mapping."""
    body = inspect.cleandoc(text[len(MARK) :])
    try:
        data = yaml.load(body, Loader=SAFE_LOADER) if body.strip() else {}
    except yaml.YAMLError as exc:
        raise TbFormatError(f"{where}: invalid YAML: {exc}") from exc
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise TbFormatError(f"{where}: the YAML must be a mapping, not {type(data).__name__}")
    return data


def _marked_string(node: ast.stmt) -> str | None:
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
        value = node.value.value
        if isinstance(value, str) and value.startswith(MARK):
            return value
    return None


def _task_function(node: ast.FunctionDef | ast.AsyncFunctionDef, where: str) -> TaskFunction:
    text = _marked_string(node.body[0])
    assert text is not None  # only functions with a marked docstring are kept
    spec = load_yaml_block(text, f"{where}:{node.name} (line {node.lineno})")
    checks, unsupported = body_checks(node.body[1:])
    if unsupported is None:
        return TaskFunction(node.name, node.lineno, spec, checks, None)
    refused = custom_check_refusal(node)
    return TaskFunction(node.name, node.lineno, spec, (), refused, custom=refused is None)


def custom_check_refusal(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """Why a body that is not a recognised shape cannot run as a custom check, or None when it can:
    a plain function whose parameters are among `x` and `judge`, all that the sandbox supplies."""
    if isinstance(node, ast.AsyncFunctionDef):
        return f"line {node.lineno}: async def; a custom check is a plain function of {CUSTOM_PARAMS_TEXT}"
    args = node.args
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    others = [n for n in names if n not in CUSTOM_PARAMS]
    others += [f"*{args.vararg.arg}"] if args.vararg else []
    others += [f"**{args.kwarg.arg}"] if args.kwarg else []
    if others:
        shown = ", ".join(others)
        return f"line {node.lineno}: takes {shown}; a custom check gets only {CUSTOM_PARAMS_TEXT}"
    return None


def body_checks(body: list[ast.stmt]) -> tuple[tuple[Check, ...], str | None]:
    """The checks a task body calls, or why the body is not a recognised shape."""
    called: list[str] = []
    for stmt in body:
        name = _called_name(stmt)
        if name is None:
            return (), f"line {stmt.lineno}: `{_source(stmt)}` is not a check call; expected {_EXPECTED}"
        if name not in _CHECK_NAMES:
            return (), f"line {stmt.lineno}: calls {name}(); statebox recognises only {_EXPECTED}"
        called.append(name)
    if called == [DATABASE_CHECK]:
        return ("database",), None
    if sorted(called) == [DATABASE_CHECK, RUBRICS_CHECK]:
        return ("database", "rubrics_yesno"), None
    shown = ", ".join(f"{name}()" for name in called) or "nothing"
    return (), f"the body calls {shown}; expected {_EXPECTED}"


def _called_name(stmt: ast.stmt) -> str | None:
    if not isinstance(stmt, ast.Expr):
        return None
    call = stmt.value.value if isinstance(stmt.value, ast.Await) else stmt.value
    if not isinstance(call, ast.Call):
        return None
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _source(stmt: ast.stmt) -> str:
    text = ast.unparse(stmt).splitlines()[0]
    return text if len(text) <= 60 else text[:57] + "..."
