"""Suites: named sets of tasks over one or more domains; selection and content hashes."""

from __future__ import annotations

import fnmatch
import hashlib
import importlib
import pkgutil
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib.metadata import entry_points

from statebox.tasks.domain import Domain
from statebox.tasks.loader import TaskFileError, load_task_dir
from statebox.tasks.model import Task
from statebox.world import Session, Snapshot, WorldError


@dataclass
class Suite:
    """Tasks plus their domains. Snapshots are built on first use and kept with the suite."""

    name: str
    tasks: list[Task]
    domains: dict[str, Domain]
    _snapshots: dict[str, Snapshot] = field(default_factory=dict, repr=False)
    _baselines: dict[str, Snapshot] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def task(self, task_id: str) -> Task:
        for t in self.tasks:
            if t.id == task_id:
                return t
        raise LookupError(f"suite {self.name!r} has no task {task_id!r}")

    def domain_of(self, task: Task) -> Domain:
        return self.domains[task.domain]

    def snapshot(self, domain: str) -> Snapshot:
        with self._lock:
            if domain not in self._snapshots:
                self._snapshots[domain] = self.domains[domain].build_snapshot()
            return self._snapshots[domain]

    def baseline(self, task: Task) -> Snapshot:
        """The task's starting image (pristine snapshot plus initial rows), built once per task."""
        pristine = self.snapshot(task.domain)
        with self._lock:
            cached = self._baselines.get(task.id)
            if cached is None:
                try:
                    cached = self._baselines[task.id] = pristine.derive(task.initial_rows)
                except WorldError as e:
                    where = self.domains[task.domain].task_dir
                    raise TaskFileError(where, str(e), task=task.id, field="initial_rows") from None
            return cached

    def open_session(self, task: Task) -> Session:
        """A fresh, isolated session at the task's start, restored from its baseline image."""
        return Session(self.baseline(task), task.now)

    def select(self, patterns: Iterable[str] | None = None, ids: Iterable[str] | None = None) -> Suite:
        """A suite of the tasks whose ids match any glob (and are in `ids`, when given)."""
        pats = list(patterns or [])
        wanted = set(ids) if ids is not None else None
        chosen = [
            t
            for t in self.tasks
            if (not pats or any(fnmatch.fnmatchcase(t.id, p) for p in pats)) and (wanted is None or t.id in wanted)
        ]
        if wanted is not None and (missing := wanted - {t.id for t in self.tasks}):
            raise LookupError(f"suite {self.name!r} has no task(s) {sorted(missing)}")
        return Suite(self.name, chosen, self.domains, self._snapshots, self._baselines, self._lock)

    def content_hash(self) -> str:
        h = hashlib.sha256()
        for t in sorted(self.tasks, key=lambda t: t.id):
            h.update(f"{t.id}:{t.content_hash()}\n".encode())
        return h.hexdigest()[:16]


def discover_domains() -> dict[str, Domain]:
    """Built-in domains (sub-packages of statebox.domains) plus `statebox.domains` entry points."""
    found: dict[str, Domain] = {}
    import statebox.domains as pkg

    for info in pkgutil.iter_modules(pkg.__path__):
        if info.ispkg:
            mod = importlib.import_module(f"statebox.domains.{info.name}")
            dom = getattr(mod, "DOMAIN", None)
            if isinstance(dom, Domain):
                found[dom.name] = dom
    for ep in entry_points(group="statebox.domains"):
        dom = ep.load()
        if isinstance(dom, Domain):
            found[dom.name] = dom
    return found


def load_suite(name: str, domains: dict[str, Domain] | None = None) -> Suite:
    """A built-in suite by name: a domain's name, or `builtin` for all domains."""
    domains = domains if domains is not None else discover_domains()
    if name == "builtin":
        chosen = dict(sorted(domains.items()))
    elif name in domains:
        chosen = {name: domains[name]}
    else:
        known = ", ".join(sorted([*domains, "builtin"]))
        raise LookupError(f"unknown suite {name!r}; available: {known} (and thinkingbox-bench with --data)")
    tasks: list[Task] = []
    for d in chosen.values():
        for t in load_task_dir(d.task_dir, d.name):
            if t.domain != d.name:
                raise TaskFileError(d.task_dir, f"task says domain {t.domain!r}", task=t.id, field="domain")
            tasks.append(t)
    return Suite(name, tasks, chosen)
