"""Package attributes imported on first use (PEP 562), so that importing a package's light names does not
import its heavy modules: `__getattr__ = lazy_attributes(__name__, {"Name": "module", ...})`."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_attributes(package: str, where: Mapping[str, str]) -> Callable[[str], Any]:
    """A module `__getattr__` that imports `package.<where[name]>` when `name` is first asked for."""

    def attribute(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{where[name]}"), name)

    return attribute
