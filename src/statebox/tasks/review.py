"""Blind-review records: a reviewer's own reading of a task, written before seeing its reference, kept beside it.

A reviewer who did not write the task reads only what the customer and the policy say (`statebox review
SUITE TASK --blind`), writes down the end state they expect, what must not happen and what must be said,
then compares with the task (`--reveal`) and records a verdict. The record names the task's content hash
at review time, so a task edited since needs a new review.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from statebox.tasks.domain import Domain
from statebox.tasks.loader import REVIEW_SUFFIX, TaskFileError, read_yaml, task_file
from statebox.tasks.model import Task
from statebox.tasks.worlds import TaskWorlds

REVIEW_VERSION = 1
ReviewVerdict = Literal["agree", "disagree"]
ResolutionKind = Literal["changed_task", "changed_policy", "added_alternative", "written_reason"]
ReviewState = Literal["current", "stale", "missing", "open"]  # open: a disagreement with no resolution yet
_TASK_CHANGING = ("changed_task", "added_alternative")


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _filled(items: list[str]) -> list[str]:
    if any(not item.strip() for item in items):
        raise ValueError("an empty entry")
    return items


class Expected(_Record):
    """What the reviewer expects, written from the policy and the situation before seeing the reference."""

    end_state: list[str] = Field(min_length=1, description="the rows that change (or 'nothing changes'), in words")
    must_not_happen: list[str] = Field(default_factory=list)
    must_be_said: list[str] = Field(default_factory=list)

    _no_blank = field_validator("end_state", "must_not_happen", "must_be_said")(_filled)


class Resolution(_Record):
    """How a disagreement ended: the task, the policy or the alternatives changed, or a written reason."""

    kind: ResolutionKind
    note: str = Field(min_length=1)
    task_hash: str | None = Field(
        default=None, description="the task's content hash after the change (changed_task, added_alternative)"
    )

    @model_validator(mode="after")
    def _hash_when_the_task_changed(self) -> Resolution:
        if self.kind in _TASK_CHANGING and not self.task_hash:
            raise ValueError(f"a {self.kind} resolution names the task's hash after the change (task_hash)")
        return self


class ReviewRecord(_Record):
    """One blind review of one task (the `<task id>.review.yaml` file beside the task)."""

    version: Literal[1] = 1  # the record format (REVIEW_VERSION)
    task: str
    reviewer: str = Field(min_length=1)
    date: dt.date
    task_hash: str = Field(description="the task's content hash when it was reviewed (statebox review --blind)")
    expected: Expected
    verdict: ReviewVerdict
    differences: str = Field(default="", description="where the task differs from what the reviewer expected")
    resolution: Resolution | None = None

    @field_validator("task_hash")
    @classmethod
    def _hex(cls, v: str) -> str:
        if not re.fullmatch(r"[0-9a-f]{16}", v):
            raise ValueError("a task hash is 16 hex digits (as `statebox review --blind` prints it)")
        return v

    @model_validator(mode="after")
    def _disagreement_says_how(self) -> ReviewRecord:
        if self.verdict == "disagree" and not self.differences.strip():
            raise ValueError("a disagreement says where the task differs (differences)")
        return self

    @property
    def covers_hash(self) -> str:
        """The task version this review stands for: after a task-changing resolution, the changed task."""
        return self.resolution.task_hash if self.resolution and self.resolution.task_hash else self.task_hash

    def state(self, current_hash: str) -> ReviewState:
        if self.covers_hash != current_hash:
            return "stale"
        return "open" if self.verdict == "disagree" and self.resolution is None else "current"


def reviewed_hash(task: Task, domain: Domain) -> str:
    """The content hash a review stands for: the task's own definition, the domain's trace checks left out.

    A change to the domain's trace checks changes how every task is judged, not what its right end state
    is; it does not call for a new blind review of every task.
    """
    shared = list(domain.trace_checks)
    own = task.checks[len(shared):] if task.checks[: len(shared)] == shared else task.checks
    return task.model_copy(update={"checks": own}).content_hash()


def review_state(record: ReviewRecord | None, task: Task, domain: Domain) -> ReviewState:
    return "missing" if record is None else record.state(reviewed_hash(task, domain))


def review_path(domain: Domain, task_id: str) -> Path:
    """Where a task's review record lives: beside the file that defines the task."""
    defined_in = task_file(domain.task_dir, task_id)
    folder = defined_in if defined_in.is_dir() else defined_in.parent
    return folder / f"{task_id}{REVIEW_SUFFIX}"


def load_review(path: Path) -> ReviewRecord:
    """One review record file; a bad one is a TaskFileError naming the file and the field."""
    try:
        doc = read_yaml(path)
    except (OSError, yaml.YAMLError) as e:
        raise TaskFileError(path, f"cannot read the review record: {e}") from None
    return parse_review(path, doc)


def parse_review(path: Path | str, doc: object) -> ReviewRecord:
    if not isinstance(doc, dict):
        raise TaskFileError(path, "a review record is a mapping (see docs/task-authoring.md)")
    try:
        return ReviewRecord.model_validate(doc)
    except ValidationError as e:
        err = e.errors()[0]
        task = doc.get("task") if isinstance(doc.get("task"), str) else None
        raise TaskFileError(path, err["msg"], task=task, field=".".join(str(p) for p in err["loc"])) from None


def load_reviews(domain: Domain) -> dict[str, ReviewRecord | TaskFileError]:
    """Every review record below the domain's task folder, by task id (an unreadable one as its error)."""
    found: dict[str, ReviewRecord | TaskFileError] = {}
    for path in sorted(domain.task_dir.rglob(f"*{REVIEW_SUFFIX}")):
        task_id = path.name.removesuffix(REVIEW_SUFFIX)
        try:
            record = load_review(path)
        except TaskFileError as e:
            found[task_id] = e
            continue
        found[task_id] = record if record.task == task_id else TaskFileError(
            path, f"the record is for task {record.task!r}, but the file is named for {task_id!r}", field="task")
    return found


def records_in(path: Path) -> list[ReviewRecord]:
    """The review records of a YAML file: one record, a list of them, or a mapping with a `reviews:` list."""
    try:
        doc = read_yaml(path)
    except (OSError, yaml.YAMLError) as e:
        raise TaskFileError(path, f"cannot read the review records: {e}") from None
    items = doc.get("reviews") if isinstance(doc, dict) and "reviews" in doc else doc
    items = items if isinstance(items, list) else [items]
    if not items or items == [None]:
        raise TaskFileError(path, "no review records in it")
    return [parse_review(f"{path} (record {i})", item) for i, item in enumerate(items)]


def check_record(suite: TaskWorlds, record: ReviewRecord, where: str = "review record") -> tuple[Task, ReviewRecord]:
    """The record's task, once the record is for a task of the suite and its hash is the task's now. A record
    with no task id (from `statebox review --batch K --blind`) is for the task whose hash it names."""
    if not record.task:
        by_hash = {reviewed_hash(t, suite.domain_of(t)): t for t in suite.tasks}
        if record.task_hash not in by_hash:
            raise TaskFileError(where, f"no task of {suite.name!r} has the hash {record.task_hash} now (the task "
                                "changed, or the record is for another suite): review it again from --blind",
                                field="task_hash")
        record = record.model_copy(update={"task": by_hash[record.task_hash].id})
    task = next((t for t in suite.tasks if t.id == record.task), None)
    if task is None:
        raise TaskFileError(where, f"suite {suite.name!r} has no task {record.task!r}", field="task")
    now = reviewed_hash(task, suite.domain_of(task))
    if record.covers_hash != now:
        which = "resolution.task_hash" if record.resolution and record.resolution.task_hash else "task_hash"
        raise TaskFileError(where, f"stale: the task's hash is {now} now, the record's {which} is "
                            f"{record.covers_hash} (the task changed: review it again from --blind)",
                            task=record.task, field=which)
    return task, record


def store_records(suite: TaskWorlds, path: Path) -> list[Path]:
    """Check every record of the file, then (only if all are good) write each beside its task."""
    records = records_in(path)
    checked = [check_record(suite, r, f"{path} (record {i})") for i, r in enumerate(records)]
    written = []
    for task, record in checked:
        target = review_path(suite.domain_of(task), task.id)
        text = yaml.safe_dump(record.model_dump(mode="json"), sort_keys=False, allow_unicode=True, width=110)
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written
