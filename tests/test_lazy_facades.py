"""Lazy package facades declare their names once (the `if TYPE_CHECKING:` imports) and export exactly those."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import statebox
from statebox.lazy import facade_imports


def facades() -> list[str]:
    root = Path(statebox.__file__).parent
    found = []
    for info in pkgutil.walk_packages([str(root)], "statebox."):
        init = root.joinpath(*info.name.split(".")[1:], "__init__.py")
        if info.ispkg and "lazy_facade(__name__, __file__)" in init.read_text(encoding="utf-8"):
            found.append(info.name)
    return found


def test_the_facades_are_found() -> None:
    assert {"statebox.tasks", "statebox.tools", "statebox.mcp", "statebox.compat.thinkingbox"} <= set(facades())


@pytest.mark.parametrize("package", facades())
def test_every_exported_name_resolves_and_dir_lists_them(package: str) -> None:
    mod = importlib.import_module(package)
    missing = [name for name in mod.__all__ if getattr(mod, name, None) is None]
    assert missing == [], f"{package} exports names that do not resolve: {missing}"
    assert mod.__all__ == sorted(set(mod.__all__))
    assert set(mod.__all__) <= set(dir(mod))
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        _ = mod.no_such_name


@pytest.mark.parametrize("package", facades())
def test_importing_a_facade_imports_none_of_its_lazy_modules(package: str) -> None:
    source = Path(importlib.import_module(package).__file__ or "").read_text(encoding="utf-8")
    lazy, _ = facade_imports(package, source)
    modules = sorted({module for module, _ in lazy.values()})
    code = f"import sys, {package}; print(sorted(m for m in {modules!r} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", f"importing {package} imported {done.stdout.strip()}"


def test_facade_imports_reads_the_type_checking_block_and_the_eager_imports() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "import typing\n"
        "from pkg.light import A as A\n"
        "from elsewhere import Z\n"
        "if TYPE_CHECKING:\n"
        "    from pkg.heavy import B as B, c as renamed\n"
        "    from other.pkg import Y\n"
        "if typing.TYPE_CHECKING:\n"
        "    from pkg.more import D as D\n"
    )
    lazy, eager = facade_imports("pkg", source)
    assert lazy == {"B": ("pkg.heavy", "B"), "renamed": ("pkg.heavy", "c"), "D": ("pkg.more", "D")}
    assert eager == ["A"]
