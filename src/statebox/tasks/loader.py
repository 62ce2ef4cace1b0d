"""Load tasks from YAML, with errors that name the file, the task and the field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import TypeAdapter, ValidationError

from statebox.tasks.checks import TraceCheck
from statebox.tasks.model import Task
from statebox.tasks.yaml_cache import load_yaml_cached

# libyaml's parser where PyYAML was built with it (about 10x faster than the pure-Python one; same documents).
SAFE_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class TaskFileError(ValueError):
    """A task file that cannot be used, with where and why."""

    def __init__(self, path: Path | str, message: str, task: str | None = None, field: str | None = None):
        self.path, self.task, self.field = str(path), task, field
        where = self.path + (f": task {task!r}" if task else "") + (f": field {field!r}" if field else "")
        super().__init__(f"{where}: {message}")


def read_yaml(path: Path) -> Any:
    """One YAML document from a file, parsed once per content (yaml_cache.py; raises OSError, yaml.YAMLError)."""
    return load_yaml_cached(path, SAFE_LOADER)


def load_task_file(path: Path, domain: str | None = None) -> list[Task]:
    """Tasks in one YAML file: a single task mapping, or a mapping with a `tasks:` list."""
    try:
        doc = read_yaml(path)
    except yaml.YAMLError as e:
        raise TaskFileError(path, f"not valid YAML: {e}") from None
    items = doc.get("tasks") if isinstance(doc, dict) and "tasks" in doc else [doc]
    if not isinstance(items, list) or not items:
        raise TaskFileError(path, "expected a task mapping or a mapping with a non-empty 'tasks' list")
    return [_parse(path, i, item, domain) for i, item in enumerate(items)]


def _parse(path: Path, index: int, item: Any, domain: str | None) -> Task:
    if not isinstance(item, dict):
        raise TaskFileError(path, f"task #{index} is a {type(item).__name__}, expected a mapping")
    task_id = item.get("id") if isinstance(item.get("id"), str) else f"#{index}"
    data = dict(item)
    if domain is not None:
        data.setdefault("domain", domain)
    try:
        return Task.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        field = ".".join(str(p) for p in err["loc"])
        more = f" (and {len(e.errors()) - 1} more problem(s))" if len(e.errors()) > 1 else ""
        raise TaskFileError(path, err["msg"] + more, task=task_id, field=field) from None


REVIEW_SUFFIX = ".review.yaml"  # a task's blind-review record, beside it (statebox.tasks.review)


def task_files(directory: Path) -> list[Path]:
    """The task files below a folder, sorted by path: every *.yaml / *.yml but the review records."""
    return [p for p in sorted(directory.rglob("*.y*ml")) if not p.name.endswith(REVIEW_SUFFIX)]


def load_task_dir(directory: Path, domain: str | None = None) -> list[Task]:
    """Every *.yaml task file below a directory, sorted by path; duplicate ids are an error."""
    tasks: list[Task] = []
    seen: dict[str, Path] = {}
    if not directory.is_dir():
        raise TaskFileError(directory, "no such task folder")
    for path in task_files(directory):
        for t in load_task_file(path, domain):
            if t.id in seen:
                raise TaskFileError(path, f"duplicate task id (also in {seen[t.id]})", task=t.id, field="id")
            seen[t.id] = path
            tasks.append(t)
    return tasks


def task_file(directory: Path, task_id: str) -> Path:
    """The file below a task folder that defines a task (the folder itself when none does)."""
    for path in task_files(directory):
        try:
            doc = read_yaml(path)
        except (OSError, yaml.YAMLError):
            continue
        items = doc.get("tasks") if isinstance(doc, dict) and "tasks" in doc else [doc]
        if isinstance(items, list) and any(isinstance(i, dict) and i.get("id") == task_id for i in items):
            return path
    return directory


_CHECK_LIST = TypeAdapter(list[TraceCheck])


def load_trace_checks(path: Path) -> list[TraceCheck]:
    """A domain's trace checks: a YAML list of checks (or a mapping with a `checks:` list)."""
    try:
        doc = read_yaml(path)
    except yaml.YAMLError as e:
        raise TaskFileError(path, f"not valid YAML: {e}") from None
    items = doc.get("checks") if isinstance(doc, dict) else doc
    try:
        return _CHECK_LIST.validate_python(items or [])
    except ValidationError as e:
        err = e.errors()[0]
        raise TaskFileError(path, err["msg"], field=".".join(str(p) for p in err["loc"])) from None
