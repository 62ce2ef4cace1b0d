"""The rules docs/architecture.md states, read from the page and checked on a source tree (`check(root, page)`).

Every import is resolved to an absolute module name: `import a.b`, `from a import b` (b may be a module),
relative imports (`from ..runner import x` inside `statebox/world/`), and `importlib.import_module` with a
literal name (or an f-string's literal head). Each violation names its file and its rule.
"""

from __future__ import annotations

import ast
import functools
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

MUTATORS = frozenset({"append", "extend", "insert", "add", "update", "setdefault", "pop", "popitem", "clear",
                      "remove", "discard", "appendleft", "sort", "reverse"})
MUTABLE_CALLS = frozenset({"list", "dict", "set", "defaultdict", "OrderedDict", "Counter", "deque", "bytearray"})
MUTABLE_DISPLAYS = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)


@dataclass(frozen=True)
class Violation:
    path: str  # relative to the package root, e.g. "world/session.py"
    rule: str  # the rule's name on the page, e.g. "layers"
    detail: str

    def __str__(self) -> str:
        return f"{self.path}: {self.rule}: {self.detail}"


@dataclass(frozen=True)
class Rules:
    """What docs/architecture.md says, as data."""

    layers: dict[str, int]  # room -> layer
    allowed: frozenset[tuple[str, str]]  # (room, room it may import outside the layering)
    isolated: frozenset[str]  # rooms and beside-modules ("lazy.py") marked "(imports nothing of statebox)"
    beside: frozenset[str]  # modules directly in the package named on the page ("lazy.py")
    forbidden: frozenset[tuple[str, str]]  # (room, room it must not import): "imports no `compat/`"
    nameless: frozenset[str]  # rooms that "name no suite"
    suite_blind: frozenset[str]  # files that name no suite class: "`runner/campaign.py` names no suite class"


@functools.cache
def read_rules(page: str) -> Rules:
    rows = re.findall(r"^\| (\d+) \| `(\w+)/` \| (.*)$", page, flags=re.MULTILINE)
    allowed = re.findall(r"^\| `(\w+)/` \| `(\w+)/` \|", page, flags=re.MULTILINE)
    beside = re.findall(r"`statebox/(\w+\.py)` \((imports nothing of statebox)?", page)
    forbidden = {(room, target) for _, room, text in rows
                 for clause in re.findall(r"imports no `\w+/`(?: and no `\w+/`)*", text)
                 for target in re.findall(r"`(\w+)/`", clause)}
    return Rules(
        layers={room: int(layer) for layer, room, _ in rows},
        allowed=frozenset(allowed),
        isolated=frozenset({room for _, room, text in rows if "(imports nothing of statebox)" in text}
                           | {name for name, isolated in beside if isolated}),
        beside=frozenset(name for name, _ in beside),
        forbidden=frozenset(forbidden),
        nameless=frozenset(room for _, room, text in rows if "names no suite" in text),
        suite_blind=frozenset(re.findall(r"`(\w+/\w+\.py)` names no suite class", page)),
    )


def module_name(root: Path, path: Path) -> tuple[str, bool]:
    """`statebox.world.session` for root/world/session.py, and whether it is a package's `__init__`."""
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    is_package = parts[-1] == "__init__"
    return ".".join(parts[:-1] if is_package else parts), is_package


def imported(nodes: list[ast.AST], module: str, is_package: bool) -> Iterator[tuple[int, str]]:
    """(line, absolute module name) for every import among a tree's `nodes`, relative ones resolved."""
    for node in nodes:
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".") if is_package else module.split(".")[:-1]
                base = ".".join([*package[: len(package) - node.level + 1], *filter(None, [node.module])])
            yield node.lineno, base
            yield from ((node.lineno, f"{base}.{alias.name}") for alias in node.names if alias.name != "*")
        elif isinstance(node, ast.Call) and _called(node) == "import_module" and node.args:
            name = _literal_head(node.args[0])
            if name:
                yield node.lineno, name


def _called(call: ast.Call) -> str | None:
    return call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", None)


def _literal_head(arg: ast.expr) -> str | None:
    """The module a literal name (or an f-string's literal head, up to its last dot) names."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
        return str(arg.values[0].value).rpartition(".")[0] or None
    return None


@dataclass(frozen=True)
class Layout:
    """What of a tree's top level decides where an import lands: its package name, its folders, its modules,
    and the suites (the folders of `domains/`, and those of `compat/` that define a suite in `suite.py`: not
    `compat/common/`, the adapters' shared code)."""

    package: str
    folders: frozenset[str]
    modules: frozenset[str]
    suites: frozenset[str]


def layout_of(root: Path) -> Layout:
    domains = [p for p in (root / "domains").iterdir() if p.is_dir()] if (root / "domains").is_dir() else []
    adapters = (root / "compat").glob("*/suite.py")
    suites = {p.name for p in domains if not p.name.startswith("__")} | {p.parent.name for p in adapters}
    return Layout(root.name, frozenset(p.name for p in root.iterdir() if p.is_dir()),
                  frozenset(p.name for p in root.glob("*.py")), frozenset(suites))


def target_of(name: str, layout: Layout) -> str | None:
    """What an imported name lands on: a room (`world`), a module beside the rooms (`lazy.py`), the package
    itself (`__init__.py`, also for its attributes), or None when it is not ours."""
    package, *parts = name.split(".")
    if package != layout.package:
        return None
    if parts and parts[0] in layout.folders:
        return parts[0]
    if parts and f"{parts[0]}.py" in layout.modules:
        return f"{parts[0]}.py"
    return "__init__.py"


def owner(relative: Path) -> str:
    """The room a file is in, or the beside-module's file name (`lazy.py`)."""
    return relative.parts[0] if len(relative.parts) > 1 else relative.name


def check(root: Path, page: str) -> list[Violation]:
    """Every violation under `root` (a copy of src/statebox, or itself) of the rules stated on `page`."""
    rules, layout = read_rules(page), layout_of(root)
    found = list(_rooms(root, rules))
    for path in sorted(root.rglob("*.py")):
        found += file_violations(path.relative_to(root).as_posix(), path.read_text(encoding="utf-8"), layout, page)
    return found


@functools.cache
def file_violations(relative: str, text: str, layout: Layout, page: str) -> tuple[Violation, ...]:
    """A file's violations: a function of its text, the tree's layout and the page only, so the checks of many
    copies that differ in one planted file read each unchanged file once."""
    rules, path = read_rules(page), Path(relative)
    tree, nodes = parsed(text)
    module, is_package = module_name(Path(layout.package), Path(layout.package) / path)
    targets = {(line, target): name for line, name in imported(nodes, module, is_package)
               if (target := target_of(name, layout)) is not None}
    return (*_imports(path, targets, rules), *_names(path, nodes, layout, rules),
            *_mutable_state(relative, tree, nodes))


@functools.cache
def parsed(text: str) -> tuple[ast.Module, list[ast.AST]]:
    """A file's tree and all its nodes (the checks only read them)."""
    tree = ast.parse(text)
    return tree, list(ast.walk(tree))


def _rooms(root: Path, rules: Rules) -> Iterator[Violation]:
    folders = {p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("__")}
    for room in sorted(folders - set(rules.layers)):
        yield Violation(f"{room}/", "rooms", "a folder that is not a room in the table")
    for room in sorted(set(rules.layers) - folders):
        yield Violation(f"{room}/", "rooms", "a room in the table that is not a folder")
    for module in sorted({p.name for p in root.glob("*.py")} - rules.beside - {"__init__.py"}):
        yield Violation(module, "beside the rooms", "a module beside the rooms that the page does not name")


def _imports(relative: Path, targets: dict[tuple[int, str], str], rules: Rules) -> Iterator[Violation]:
    me, path = owner(relative), relative.as_posix()
    for (line, target), name in sorted(targets.items()):
        if target == me:
            continue
        if me in rules.isolated:
            yield Violation(path, "nothing of statebox", f"line {line} imports {name}")
        if (me, target) in rules.forbidden:
            yield Violation(path, "cli", f"line {line} imports {name} (no `{target}/`)")
        if me in rules.layers and target in rules.layers and (me, target) not in rules.allowed:
            mine, theirs = rules.layers[me], rules.layers[target]
            if theirs >= mine:
                yield Violation(path, "layers", f"line {line} imports {name} (layer {theirs} >= {mine}, not allowed)")


def _names(relative: Path, nodes: list[ast.AST], layout: Layout, rules: Rules) -> Iterator[Violation]:
    path = relative.as_posix()
    if owner(relative) in rules.nameless:
        for node in nodes:
            if isinstance(node, ast.Constant) and node.value in layout.suites:
                yield Violation(path, "cli", f"line {node.lineno} names the suite {node.value!r}")
    if path in rules.suite_blind:
        for node in nodes:
            named = getattr(node, "id", None) or getattr(node, "attr", None) or getattr(node, "name", None)
            if isinstance(named, str) and named.endswith("Suite") and hasattr(node, "lineno"):
                yield Violation(path, "no suite-specific branches", f"line {node.lineno} names {named}")


def _mutable_state(path: str, tree: ast.Module, nodes: list[ast.AST]) -> Iterator[Violation]:
    held = {target.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign)) and _mutable(node.value)
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            if isinstance(target, ast.Name)}
    for node in nodes:
        if isinstance(node, ast.Global):
            yield Violation(path, "no module-level mutable state", f"line {node.lineno} global {', '.join(node.names)}")
        changed = _changed_name(node)
        if changed in held:
            line = getattr(node, "lineno", "?")
            yield Violation(path, "no module-level mutable state", f"line {line} changes {changed}")


def _mutable(value: ast.expr | None) -> bool:
    return isinstance(value, MUTABLE_DISPLAYS) or (isinstance(value, ast.Call) and _called(value) in MUTABLE_CALLS)


def _changed_name(node: ast.AST) -> str | None:
    """The plain name `node` changes in place (`x.append(...)`, `x[k] = v`, `del x[k]`, `x += ...`), if any."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
        return getattr(node.func.value, "id", None)
    targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else []
    targets = [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else targets
    for target in targets:
        if isinstance(target, ast.Subscript):
            return getattr(target.value, "id", None)
        if isinstance(node, ast.AugAssign) and isinstance(target, ast.Name):
            return target.id
    return None


def read_facades(page: str) -> tuple[list[str], list[str]]:
    """The lazy facades the page names and the packages importing one must not import."""
    sentence = re.search(r"first use: (.*?) do, .*?\(lazy facades:\s+importing any of the \w+ imports none of the"
                         r"\s+packages (.*?)\)", page, flags=re.DOTALL)
    assert sentence, "docs/architecture.md no longer states the lazy facades rule"
    return re.findall(r"`([\w.]+)`", sentence.group(1)), re.findall(r"`([\w.]+)`", sentence.group(2))


def check_facades(root: Path, page: str) -> list[Violation]:
    """Import each lazy facade of the tree at `root` in a fresh interpreter; any heavy package it loads fails."""
    facades, heavy = read_facades(page)
    script = ("import importlib, sys\nimportlib.import_module(sys.argv[1])\n"
              "print(' '.join(m for m in sys.argv[2:] if m in sys.modules))")
    found = []
    for facade in facades:
        done = subprocess.run([sys.executable, "-c", script, facade, *heavy], capture_output=True, text=True,
                              timeout=120, cwd=root.parent, env={"PYTHONPATH": str(root.parent), "PATH": ""})
        loaded = done.stdout.split() if done.returncode == 0 else [f"(import failed: {done.stderr.strip()[-300:]})"]
        if loaded:
            path = "/".join(facade.split(".")[1:]) + "/__init__.py"
            found.append(Violation(path, "lazy facades", f"importing {facade} imports {', '.join(loaded)}"))
    return found
