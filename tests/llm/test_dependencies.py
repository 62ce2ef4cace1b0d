"""`pip install statebox` pulls no provider SDK: neither statebox's own requirements nor theirs,
followed through the installed packages' metadata, name `openai` or `anthropic`; nothing in
src/ imports them."""

from __future__ import annotations

import re
from importlib.metadata import PackageNotFoundError, requires
from pathlib import Path

SDKS = {"openai", "anthropic"}
SRC = Path(__file__).resolve().parents[2] / "src" / "statebox"


def name_of(requirement: str) -> str:
    return re.split(r"[\s;<>=!~\[(]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def core_requirements(package: str) -> list[str]:
    """A package's requirements outside any extra."""
    try:
        found = requires(package) or []
    except PackageNotFoundError:
        return []
    return [r for r in found if "extra ==" not in r and "extra==" not in r]


def closure(package: str) -> set[str]:
    seen: set[str] = set()
    pending = [package]
    while pending:
        for requirement in core_requirements(pending.pop()):
            name = name_of(requirement)
            if name not in seen:
                seen.add(name)
                pending.append(name)
    return seen


def test_installing_statebox_pulls_no_provider_sdk():
    pulled = closure("statebox")

    assert "aiohttp" in pulled and "genai-prices" in pulled, pulled
    assert not SDKS & pulled, f"pulled by `pip install statebox`: {sorted(SDKS & pulled)}"


def test_the_sdks_are_dev_dependencies_only():
    dev = {name_of(r) for r in requires("statebox") or [] if 'extra == "dev"' in r}

    assert dev >= SDKS, dev


def test_nothing_in_src_imports_a_provider_sdk():
    pattern = re.compile(r"^\s*(import|from)\s+(openai|anthropic)\b", re.MULTILINE)
    importing = [str(p.relative_to(SRC)) for p in SRC.rglob("*.py") if pattern.search(p.read_text())]

    assert importing == []
