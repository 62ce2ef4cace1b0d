"""@tool: turn a typed Python function over a session into a tool with a JSON Schema."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, get_origin, get_type_hints

from pydantic import Field, create_model
from pydantic.fields import FieldInfo

from statebox.tools.strict import NotStrictable, optional_arguments, strict_schema
from statebox.tools.surface import ToolSpec

ToolFn = Callable[..., Any]


@dataclass(frozen=True)
class Tool:
    """A tool: its public spec and the function that implements it."""

    spec: ToolSpec
    fn: ToolFn
    defaults: dict[str, Any]  # every optional argument's value when left out or null

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def writes(self) -> bool:
        return self.spec.writes


def tool(*, writes: bool, name: str | None = None) -> Callable[[ToolFn], Tool]:
    """Declare a tool. The first parameter is the session; the rest become its arguments.

    The docstring's first paragraph is the description; an ``Args:`` section documents arguments. An argument
    it leaves out may be described by its type: ``EmployeeId = Annotated[str, Field(description="the employee
    id")]`` describes every argument of that type (the ``Args:`` line, when there is one, says it for one tool).
    """

    def wrap(fn: ToolFn) -> Tool:
        description, arg_docs = _parse_docstring(inspect.getdoc(fn) or "")
        schema, defaults = _schema(fn, arg_docs)
        spec = ToolSpec(name=name or fn.__name__, description=description, input_schema=schema, writes=writes)
        return Tool(spec=spec, fn=fn, defaults=defaults)

    return wrap


def _parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    head, _, rest = doc.partition("\nArgs:\n")
    args: dict[str, str] = {}
    current = None
    for line in rest.splitlines():
        if line.strip() and not line[0].isspace():
            break  # the next section (Returns:, Raises:, ...) ends the arguments
        m = re.match(r"^\s{2,}(\w+):\s*(.*)$", line)
        if m and (current is None or len(line) - len(line.lstrip()) <= 4):
            current = m.group(1)
            args[current] = m.group(2).strip()
        elif current and line.strip():
            args[current] += " " + line.strip()
    return " ".join(head.split()), args


def _schema(fn: ToolFn, arg_docs: dict[str, str]) -> tuple[dict[str, Any], dict[str, Any]]:
    hints = get_type_hints(fn, include_extras=True)
    params = list(inspect.signature(fn).parameters.values())[1:]  # first is the session
    fields: dict[str, Any] = {}
    defaults: dict[str, Any] = {}
    for p in params:
        if p.name not in hints:
            raise TypeError(f"tool {fn.__name__}: argument {p.name!r} needs a type hint")
        desc = arg_docs.get(p.name) or _described(hints[p.name])
        if p.default is inspect.Parameter.empty:
            fields[p.name] = (hints[p.name], Field(description=desc))
        else:
            defaults[p.name] = p.default
            fields[p.name] = (hints[p.name], Field(default=p.default, description=desc))
    model = create_model(f"{fn.__name__}_args", **fields)
    try:
        schema = strict_schema(_strip_titles(model.model_json_schema()))
    except NotStrictable as e:
        raise TypeError(f"tool {fn.__name__}: {e}") from None
    for name in optional_arguments(schema) - set(defaults):
        defaults[name] = None  # a nullable argument without a default: left out is null
    return schema, defaults


def _described(hint: Any) -> str | None:
    """The description an ``Annotated[T, Field(description=...)]`` hint carries, if any."""
    if get_origin(hint) is not Annotated:
        return None
    found = [m.description for m in hint.__metadata__ if isinstance(m, FieldInfo) and m.description]
    return found[-1] if found else None


def _strip_titles(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _strip_titles(v) for k, v in node.items() if k != "title" or not isinstance(v, str)}
    if isinstance(node, list):
        return [_strip_titles(v) for v in node]
    return node
