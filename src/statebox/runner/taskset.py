"""The one interface of every suite, built-in or not: its tasks, their selection and content hash, its table.

A `TaskSet` also says how its attempts run (`attempt_source()`), so nothing that runs, hosts or replays
attempts asks which kind of suite it has.
"""

from __future__ import annotations

import fnmatch
import hashlib
from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Self

from statebox.tasks.model import Task
from statebox.tools.quoting import shorten

if TYPE_CHECKING:
    from statebox.judge import JudgingRules
    from statebox.runner.source import AttemptSource
    from statebox.world import Effects

Cell = str | int | bool | None  # a table cell: bools print as yes/NO, None as n/a


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


class TaskSet(ABC):
    """A named set of tasks: selection, content hash, and what `statebox tasks` shows of it."""

    name: str
    tasks: list[Task]
    # What a rubric question is judged on, unless the rubric says: everything the agent told the
    # customer, or (a benchmark's own rule) its final reply.
    rubrics_on: Literal["conversation", "final_reply"] = "conversation"

    @abstractmethod
    def attempt_source(self, tools_via: str = "memory") -> AttemptSource:
        """How this suite's attempts run: what a campaign shares, a fresh backend per attempt, its agents' set-up.
        `tools_via` is how world-backed tools reach the agent (`memory`, `http`, `direct`); a suite whose tools
        are servers of its own talks to them its own way."""

    def required_effects(self, task: Task) -> list[Effects] | None:
        """The end states the task's reference leads to, replayed now, where statebox judges the end state itself
        (`judge.ReferenceFailed`: a task bug); None for a suite whose state verdict is its own rule."""
        return None

    def judging_rules(self, task: Task) -> JudgingRules | None:
        """The rules the task's end state is judged by, where statebox judges it itself (None otherwise)."""
        return None

    def writes(self, task: Task, tool: str) -> bool:
        """Whether `tool` changes state in `task` (for failure signatures); unknown tools count as writes."""
        return True

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
