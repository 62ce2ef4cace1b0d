"""The scaffold `statebox new-domain` writes: a working domain folder (policy, seed, two tools, three tasks)."""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATE = Path(__file__).parent / "scaffold"
SUFFIX = ".tmpl"
NAME_RULE = re.compile(r"[a-z][a-z0-9_]{0,39}")


class ScaffoldError(ValueError):
    """A name or a folder the scaffold cannot be written with; the message is one line."""


def check_name(name: str) -> str:
    """A domain name: lowercase letters, digits and underscores, starting with a letter (at most 40)."""
    if not NAME_RULE.fullmatch(name):
        raise ScaffoldError(
            f"domain name {name!r}: use lowercase letters, digits and _, starting with a letter (e.g. acme_support)"
        )
    return name


def template_files() -> list[Path]:
    """The template's files, relative to it, sorted."""
    return sorted(p.relative_to(TEMPLATE) for p in TEMPLATE.rglob(f"*{SUFFIX}"))


def write_scaffold(name: str, folder: Path) -> list[Path]:
    """Write the scaffold for domain `name` into `folder` (absent or empty); the files written, in order."""
    check_name(name)
    if folder.exists() and not folder.is_dir():
        raise ScaffoldError(f"{folder}: exists and is not a folder")
    if folder.is_dir() and any(folder.iterdir()):
        raise ScaffoldError(f"{folder}: is not empty; give a new or empty folder")
    written = []
    for rel in template_files():
        target = folder / str(rel)[: -len(SUFFIX)]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text((TEMPLATE / rel).read_text(encoding="utf-8").replace("{{name}}", name), encoding="utf-8")
        written.append(target)
    return written
