"""A τ-bench checkout as data: its tasks (read from the tasks files without running them) and policies.

The tasks files are Python (`TASKS = [Task(user_id=..., actions=[Action(...)], ...)]`); they are read
as syntax: every argument must be a literal, so nothing of the checkout runs in statebox's process.
The tools and data are only ever run by τ-bench's own code, in the server Python.
"""

from __future__ import annotations

import ast
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from statebox.compat.taubench.errors import TauFormatError
from statebox.compat.taubench.models import Domain, Split, TauAction, TauTaskData

DOMAINS: tuple[Domain, ...] = ("airline", "retail")
SPLITS: dict[Domain, tuple[Split, ...]] = {"airline": ("test",), "retail": ("test", "train", "dev")}
LAYOUT = ("tools/__init__.py", "data/__init__.py", "wiki.md", "tasks_test.py")  # per domain, at 59a200c


@dataclass
class TauCheckout:
    """A τ-bench checkout (the folder holding `tau_bench/`), checked to have the layout statebox reads."""

    root: Path
    _tasks: dict[tuple[str, str], list[TauTaskData]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.root = Path(self.root).resolve()
        for domain in DOMAINS:
            for part in LAYOUT:
                if not (self.envs(domain) / part).is_file():
                    raise TauFormatError(
                        f"--data {self.root}: not a τ-bench checkout statebox can read: "
                        f"no tau_bench/envs/{domain}/{part} (statebox reads the layout of τ-bench 59a200c)"
                    )

    def envs(self, domain: str) -> Path:
        return self.root / "tau_bench" / "envs" / domain

    def tasks_file(self, domain: Domain, split: Split) -> Path:
        if split not in SPLITS[domain]:
            raise TauFormatError(f"tau-bench {domain} has no {split} split (it has: {', '.join(SPLITS[domain])})")
        return self.envs(domain) / f"tasks_{split}.py"

    def tasks(self, domain: Domain, split: Split) -> list[TauTaskData]:
        """The split's tasks in file order (a task's index is its τ-bench task id)."""
        key = (domain, split)
        if key not in self._tasks:
            self._tasks[key] = read_tasks_file(self.tasks_file(domain, split))
        return self._tasks[key]

    def wiki(self, domain: Domain) -> str:
        """The domain's policy, the agent's system prompt in τ-bench."""
        return (self.envs(domain) / "wiki.md").read_text(encoding="utf-8")

    def tool_names(self, domain: Domain) -> set[str]:
        """The names the domain's tools give themselves (`get_info()["function"]["name"]`), read as syntax."""
        names = set()
        for path in sorted((self.envs(domain) / "tools").glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Dict):
                    found = _literal_key(node, "function")
                    if isinstance(found, ast.Dict) and isinstance(name := _literal_key(found, "name"), ast.Constant):
                        names.add(str(name.value))
        return names

    def fingerprint(self, domain: Domain) -> str:
        """A hash of what grades the domain: its tasks files, data, tools and policy."""
        h = hashlib.sha256()
        base = self.envs(domain)
        for path in sorted(p for p in base.rglob("*") if p.is_file() and p.suffix in (".py", ".json", ".md")):
            if "__pycache__" not in path.parts:
                h.update(f"{path.relative_to(base)}\n".encode())
                h.update(path.read_bytes())
        return h.hexdigest()[:16]


def read_tasks_file(path: Path) -> list[TauTaskData]:
    """The `Task(...)` calls of a tasks file's list, read as literals."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (OSError, SyntaxError) as e:
        raise TauFormatError(f"{path}: cannot be read as Python ({e})") from None
    lists = [node.value for node in tree.body if isinstance(node, ast.Assign) and isinstance(node.value, ast.List)]
    if len(lists) != 1:
        raise TauFormatError(f"{path}: expected one list of Task(...), found {len(lists)}")
    tasks = []
    for i, node in enumerate(lists[0].elts):
        try:
            fields = _call_fields(node, "Task")
            fields["actions"] = [TauAction.model_validate(_call_fields(a, "Action")) for a in fields.get("actions", [])]
            tasks.append(TauTaskData.model_validate(fields))
        except (ValueError, ValidationError) as e:
            first = str(e).splitlines()[0] if not isinstance(e, ValidationError) else _first_error(e)
            raise TauFormatError(f"{path}: task {i}: {first}") from None
    return tasks


def _call_fields(node: ast.expr, name: str) -> dict[str, Any]:
    """The keyword arguments of `name(...)`, each a literal (`Action(...)` calls left as nodes for the caller)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name) or node.args:
        raise ValueError(f"expected {name}(keyword=..., ...), found {ast.unparse(node)[:80]}")
    fields: dict[str, Any] = {}
    for keyword in node.keywords:
        if keyword.arg is None:
            raise ValueError(f"{name}(**...) cannot be read as data")
        value = keyword.value
        fields[keyword.arg] = list(value.elts) if keyword.arg == "actions" and isinstance(value, ast.List) \
            else ast.literal_eval(value)  # fmt: skip
    return fields


def _literal_key(node: ast.Dict, key: str) -> ast.expr | None:
    for k, v in zip(node.keys, node.values, strict=True):
        if isinstance(k, ast.Constant) and k.value == key:
            return v
    return None


def _first_error(e: ValidationError) -> str:
    err = e.errors()[0]
    return f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}"
