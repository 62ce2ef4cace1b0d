"""Domains found and loaded: every domain there is (built-in or an entry point), and the tasks of some of them
with each domain's snapshot and each task's baseline image (`TaskWorlds`, what the judge replays on)."""

from __future__ import annotations

import importlib
import pkgutil
import threading
from dataclasses import dataclass, field
from importlib.metadata import entry_points

from statebox.tasks.domain import Domain
from statebox.tasks.index import builtin_domain_names
from statebox.tasks.loader import TaskFileError, task_file
from statebox.tasks.model import Task
from statebox.tools.quoting import shorten
from statebox.world import Session, Snapshot, WorldError


@dataclass
class TaskWorlds:
    """Tasks plus their domains. Snapshots are built on first use and kept with them (and their selections)."""

    name: str
    tasks: list[Task]
    domains: dict[str, Domain]
    _snapshots: dict[str, Snapshot] = field(default_factory=dict, repr=False)
    _baselines: dict[str, Snapshot] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

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
                    where = task_file(self.domains[task.domain].task_dir, task.id)
                    raise TaskFileError(where, str(e), task=task.id, field="initial_rows") from None
            return cached

    def open_session(self, task: Task) -> Session:
        """A fresh, isolated session at the task's start, restored from its baseline image."""
        return Session(self.baseline(task), task.now)

    def __reduce__(self) -> tuple[type[TaskWorlds], tuple[str, list[Task], dict[str, Domain]]]:
        """Pickled (for another process) as its name, tasks and domains: snapshots are built again there."""
        return type(self), (self.name, self.tasks, self.domains)


def _named_domain(name: str) -> dict[str, Domain] | None:
    """Just the domain called `name` (a built-in sub-package or an entry point), importing no other; None if none is."""
    if name in builtin_domain_names():
        dom = getattr(importlib.import_module(f"statebox.domains.{name}"), "DOMAIN", None)
    else:
        dom = next((ep.load() for ep in entry_points(group="statebox.domains") if ep.name == name), None)
    return {name: dom} if isinstance(dom, Domain) and dom.name == name else None


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


def load_worlds(name: str, domains: dict[str, Domain] | None = None) -> TaskWorlds:
    """The tasks of a built-in suite by name: a domain's name, or `builtin` for all domains."""
    if domains is None:
        domains = (_named_domain(name) if name != "builtin" else None) or discover_domains()
    if name == "builtin":
        chosen = dict(sorted(domains.items()))
    elif name in domains:
        chosen = {name: domains[name]}
    else:
        known = ", ".join(sorted([*domains, "builtin"]))
        raise LookupError(f"unknown suite {shorten(name)!r}; available: {known}")
    tasks: list[Task] = []
    for d in chosen.values():
        for t in d.load_tasks():
            if t.domain != d.name:
                raise TaskFileError(d.task_dir, f"task says domain {t.domain!r}", task=t.id, field="domain")
            tasks.append(t)
    return TaskWorlds(name, tasks, chosen)
