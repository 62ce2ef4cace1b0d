"""Package facades whose heavy names import on first use (PEP 562), declared in one list: the facade's own
`if TYPE_CHECKING:` imports.

    from typing import TYPE_CHECKING

    from statebox.lazy import lazy_facade
    from statebox.mcp.errors import ToolServerError as ToolServerError   # light: imported now, exported

    if TYPE_CHECKING:                                                     # heavy: imported on first use
        from statebox.mcp.server import build_server as build_server

    __getattr__, __dir__, __all__ = lazy_facade(__name__, __file__)

The type checker reads the imports as they are; at run time `lazy_facade` reads the same lines from
the facade's source, so the names, where they live and `__all__` cannot disagree. A facade exports
the names it imports from its own sub-modules, eagerly or lazily, and nothing else.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

Facade = tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]


def lazy_facade(package: str, source_file: str) -> Facade:
    """The facade's `__getattr__`, `__dir__` and `__all__`, from the imports in its source (see the module doc)."""
    lazy, eager = facade_imports(package, Path(source_file).read_text(encoding="utf-8"))
    exported = sorted({*lazy, *eager})

    def attribute(name: str) -> Any:
        if name not in lazy:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, original = lazy[name]
        return getattr(importlib.import_module(module), original)

    def names() -> list[str]:
        return exported

    return attribute, names, exported


def facade_imports(package: str, source: str) -> tuple[dict[str, tuple[str, str]], list[str]]:
    """(lazy: name -> (module, name there) from the `if TYPE_CHECKING:` block; eager: names imported at the top
    level), counting only imports from the package's own sub-modules."""
    lazy: dict[str, tuple[str, str]] = {}
    eager: list[str] = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for inner in node.body:
                for module, original, name in _own_imports(package, inner):
                    lazy[name] = (module, original)
        else:
            eager.extend(name for _, _, name in _own_imports(package, node))
    return lazy, eager


def _own_imports(package: str, node: ast.stmt) -> list[tuple[str, str, str]]:
    if not isinstance(node, ast.ImportFrom) or node.level != 0 or node.module is None:
        return []
    if not node.module.startswith(f"{package}."):
        return []
    return [(node.module, alias.name, alias.asname or alias.name) for alias in node.names]


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )
