"""The built-in domains' catalogue lines (task count, description) without importing or loading them.

`statebox suites` would otherwise import every domain and parse all of its task files to print five
numbers. `domains/index.json` keeps each built-in domain's line with a digest of the files it was
computed from (the domain's `__init__.py` and its task files); a line is used only while the digest
still matches the files byte for byte, so an edited domain is loaded and counted as before, never
miscounted. `python -m statebox.tasks.index` rewrites the file; a test checks it is current.
"""

from __future__ import annotations

import hashlib
import json
import pkgutil
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path

from statebox.tasks.loader import task_files

VERSION = 1


@dataclass(frozen=True)
class IndexLine:
    tasks: int
    description: str
    digest: str


def builtin_domain_names() -> list[str]:
    """The built-in domains (sub-packages of statebox.domains), without importing them."""
    return sorted(info.name for info in pkgutil.iter_modules([str(builtin_root())]) if info.ispkg)


def domain_names() -> list[str]:
    """The names `discover_domains` would give, without importing a domain: built-in sub-packages are named as
    their domains, and a `statebox.domains` entry point's name is its domain's name."""
    names = set(builtin_domain_names())
    names.update(ep.name for ep in entry_points(group="statebox.domains"))
    return sorted(names)


def builtin_root() -> Path:
    import statebox.domains as pkg

    return Path(pkg.__file__).parent


def index_path() -> Path:
    return builtin_root() / "index.json"


def domain_digest(name: str) -> str | None:
    """sha256 over the built-in domain's `__init__.py` and task files (paths and bytes); None when it has none."""
    folder = builtin_root() / name
    init = folder / "__init__.py"
    if not init.is_file():
        return None
    h = hashlib.sha256()
    tasks = folder / "tasks"
    for path in [init, *(task_files(tasks) if tasks.is_dir() else [])]:
        rel = path.relative_to(folder).as_posix().encode()
        data = path.read_bytes()
        h.update(len(rel).to_bytes(4, "big") + rel + len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def read_index(path: Path | None = None) -> dict[str, IndexLine]:
    """The index's lines by domain name; empty when the file is missing or not this version's."""
    try:
        doc = json.loads((path or index_path()).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(doc, dict) or doc.get("version") != VERSION or not isinstance(doc.get("domains"), dict):
        return {}
    lines: dict[str, IndexLine] = {}
    for name, entry in doc["domains"].items():
        try:
            lines[name] = IndexLine(int(entry["tasks"]), str(entry["description"]), str(entry["digest"]))
        except (KeyError, TypeError, ValueError):
            continue
    return lines


def current_line(name: str, lines: dict[str, IndexLine]) -> IndexLine | None:
    """The domain's indexed line if its files are still the ones it was computed from."""
    line = lines.get(name)
    return line if line is not None and line.digest == domain_digest(name) else None


def index_document(counted: dict[str, tuple[int, str]]) -> dict[str, object]:
    """The index for built-in domains counted by loading them: name -> (tasks, description)."""
    domains = {}
    for name, (tasks, description) in sorted(counted.items()):
        digest = domain_digest(name)
        if digest is not None:
            domains[name] = {"tasks": tasks, "description": description, "digest": digest}
    return {"version": VERSION, "domains": domains}


def counted_builtins() -> dict[str, tuple[int, str]]:
    """Every built-in domain's task count and description, by importing and loading it."""
    from statebox.tasks.worlds import load_worlds

    counted = {}
    for name in builtin_domain_names():
        suite = load_worlds(name)
        counted[name] = (len(suite.tasks), suite.domains[name].description)
    return counted


def main() -> None:
    path = index_path()
    path.write_text(json.dumps(index_document(counted_builtins()), indent=2) + "\n", encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
