"""Suite providers: what the `statebox` command can list, open, validate and run, and how to find them.

A provider registers under the `statebox.suites` entry-point group (pyproject.toml), names its
suites, declares the command-line options it needs and checks them itself, and opens a suite as a
`TaskSet`. The command line never names a suite: it asks the providers.
"""

from __future__ import annotations

import fnmatch
import hashlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Generic, Literal, Self, TypeVar

from statebox.tasks.model import Task
from statebox.tools.quoting import shorten

ENTRY_POINT_GROUP = "statebox.suites"
COMMANDS = frozenset({"tasks", "validate", "run"})

Cell = str | int | bool | None  # a table cell: bools print as yes/NO, None as n/a


class SuiteError(ValueError):
    """A suite that cannot be opened as asked; the message is one line naming the option, file or task."""


@dataclass(frozen=True)
class SuiteOption:
    """A command-line option a provider adds to `statebox tasks`, `validate` and/or `run`."""

    name: str  # the keyword the provider receives, e.g. "data"
    flag: str  # e.g. "--data"; a switch is "--fork/--no-fork"
    type: type[Any]
    help: str
    default: Any = None
    commands: frozenset[str] = COMMANDS


@dataclass(frozen=True)
class SuiteInfo:
    """One line of `statebox suites`."""

    name: str
    tasks: int | None  # None when it cannot be known without options (see `needs`)
    description: str
    needs: tuple[str, ...] = ()  # options without which the suite cannot be opened


@dataclass(frozen=True)
class Note:
    """A line printed under a table, e.g. `unsupported <id>: <why>`."""

    label: str
    text: str


@dataclass
class Listing:
    """A table for the terminal, and its notes."""

    title: str | None
    columns: tuple[str, ...]
    rows: list[tuple[Cell, ...]] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)


@dataclass
class ValidationReport:
    """What `statebox validate` prints: a table, a closing line, the JSON document, and whether all passed."""

    ok: bool
    table: Listing
    summary: str
    json: dict[str, Any]


class TaskSet(ABC):
    """A named set of tasks: selection, content hash, and what `statebox tasks` shows of it."""

    name: str
    tasks: list[Task]
    # What a rubric question is judged on, unless the rubric says: everything the agent told the
    # customer, or (a benchmark's own rule) its final reply.
    rubrics_on: Literal["conversation", "final_reply"] = "conversation"

    @abstractmethod
    def with_tasks(self, tasks: list[Task]) -> Self:
        """The same suite, holding only `tasks` (a subset of its own, in its order)."""

    def task(self, task_id: str) -> Task:
        for t in self.tasks:
            if t.id == task_id:
                return t
        raise LookupError(f"suite {self.name!r} has no task {shorten(task_id)!r}")

    def select(self, patterns: Iterable[str] | None = None, ids: Iterable[str] | None = None) -> Self:
        """The tasks whose ids match any glob (fnmatch), and are in `ids` when given."""
        pats = list(patterns or [])
        wanted = set(ids) if ids is not None else None
        if wanted is not None and (missing := wanted - {t.id for t in self.tasks}):
            raise LookupError(f"suite {self.name!r} has no task(s) {sorted(missing)}")
        chosen = [
            t
            for t in self.tasks
            if (not pats or any(fnmatch.fnmatchcase(t.id, p) for p in pats)) and (wanted is None or t.id in wanted)
        ]
        return self.with_tasks(chosen)

    def content_hash(self) -> str:
        """A hash of the selected tasks' content hashes (the manifest's `task_set_hash`)."""
        h = hashlib.sha256()
        for t in sorted(self.tasks, key=lambda t: t.id):
            h.update(f"{t.id}:{t.content_hash()}\n".encode())
        return h.hexdigest()[:16]

    @abstractmethod
    def listing(self) -> Listing:
        """The `statebox tasks` table."""

    def listing_json(self) -> dict[str, Any]:
        """`statebox tasks --json`: every task in full, reference solutions included."""
        tasks = [t.model_dump(mode="json") for t in self.tasks]
        return {"suite": self.name, "hash": self.content_hash(), "tasks": tasks}

    def warnings(self) -> list[str]:
        """What a user should know before a run (printed on stderr), e.g. tasks left out."""
        return []


S = TypeVar("S", bound=TaskSet)


class SuiteProvider(ABC, Generic[S]):
    """A family of suites: names them, opens them with its own options, and validates their tasks."""

    options: tuple[SuiteOption, ...] = ()

    @abstractmethod
    def names(self) -> list[str]:
        """The suite names this provider opens (cheap: no tasks are loaded)."""

    @abstractmethod
    def catalog(self) -> list[SuiteInfo]:
        """`statebox suites`: every suite with its task count where it is known without options."""

    @abstractmethod
    def open(self, name: str, options: Mapping[str, Any], patterns: list[str] | None, test_list: Path | None) -> S:
        """The suite with its tasks selected; `options` holds this provider's options by name.
        Bad input is a `SuiteError`."""

    @abstractmethod
    def validate(self, suite: S, *, concurrency: int, on_done: Callable[[], None]) -> ValidationReport:
        """Check every task of an opened suite; `on_done` is called once per task checked."""

    def opens(self, name: str) -> bool:
        """Whether this provider opens `name` though `names()` does not list it (e.g. a domain folder's path);
        asked only when no provider lists the name."""
        return False

    def run_options(self, manifest: Mapping[str, Any]) -> tuple[dict[str, Any], Path | None]:
        """The options and test list a run was made with, from its manifest, to open its suite again
        when the user gives none (e.g. `statebox show RUN TASK`); a provider without options has none."""
        return {}, None


def suite_providers() -> list[SuiteProvider[Any]]:
    """Every registered provider, in the order of their entry-point names."""
    found: list[SuiteProvider[Any]] = []
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name):
        provider = ep.load()
        found.append(provider() if isinstance(provider, type) else provider)
    return found


def provider_for(name: str, providers: list[SuiteProvider[Any]]) -> SuiteProvider[Any]:
    """The provider that lists suite `name`, else one that opens it unlisted; a SuiteError lists the suites."""
    for provider in providers:
        if name in provider.names():
            return provider
    for provider in providers:
        if provider.opens(name):
            return provider
    known = ", ".join(sorted(n for p in providers for n in p.names()))
    raise SuiteError(f"unknown suite {name!r}; available: {known} (see `statebox suites`), or a domain folder's path")
