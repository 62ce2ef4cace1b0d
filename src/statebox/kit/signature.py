"""Tools whose argument names and choices a domain configures (a kit component's tools)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from statebox.tools import Tool, tool
from statebox.world import Session

_EMPTY = inspect.Parameter.empty


@dataclass(frozen=True)
class Arg:
    """One argument of a configured tool: name, type, description and (optional) default."""

    name: str
    type: Any
    doc: str
    default: Any = _EMPTY


def choice(values: tuple[str, ...]) -> Any:
    """A Literal type of the given strings (a closed set the schema lists)."""
    return Literal[values]


def configured_tool(
    body: Callable[..., Any], *, name: str, summary: str, args: list[Arg], writes: bool
) -> Tool:
    """A tool named `name` whose arguments are `args`; `body(db, **arguments)` implements it."""

    def fn(db: Session, **arguments: Any) -> Any:
        return body(db, **arguments)

    params = [inspect.Parameter("db", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Session)]
    params += [
        inspect.Parameter(a.name, inspect.Parameter.KEYWORD_ONLY, default=a.default, annotation=a.type) for a in args
    ]
    fn.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    fn.__annotations__ = {"db": Session, **{a.name: a.type for a in args}}
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = summary + "\n\nArgs:\n" + "".join(f"    {a.name}: {a.doc}\n" for a in args)
    return tool(writes=writes, name=name)(fn)
