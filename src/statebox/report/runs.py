"""Reading run directories for a report: shards merge, trial ids dedupe (merge.py), bad lines are counted.

Lines are read by the run store's reader and rules (runner/store.py: blank and torn lines, schema versions):
a line torn by a killed writer is skipped with a warning, any other line that is not a record refused.
Finished attempts are kept as `TrialSummary`s (trial_summary.py); `FullRecords` reads a whole record
back from its place when its transcript is needed. Everything returned is sorted, so the report does
not depend on the order of lines or of the directories given.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import BinaryIO, TypeVar

from pydantic import BaseModel, ValidationError

from statebox.report.merge import MergeConflict, Prefer, resolve_duplicates
from statebox.report.trial_summary import RecordAt, TrialSummary, read_summary
from statebox.runner.manifest import Manifest
from statebox.runner.record import ErrorRecord, TrialRecord
from statebox.runner.store import (
    ERRORS,
    MANIFEST,
    TRIALS,
    Line,
    RunDir,
    RunDirError,
    check_version,
    parse_record,
    read_jsonl,
)

GroupKey = tuple[str, str, str | None]  # (suite, agent, model)
Read = TypeVar("Read")
Full = TypeVar("Full", bound=BaseModel)


class ReportInputError(ValueError):
    """The directories given cannot be reported on; the message names the culprit."""


@dataclass
class LoadedRuns:
    """Finished attempts and outstanding infrastructure errors of one or more run directories."""

    trials: list[TrialSummary]
    errors: list[ErrorRecord]  # one per trial id that has no finished attempt
    declared_repeats: dict[GroupKey, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def group_key(record: TrialSummary | ErrorRecord) -> GroupKey:
    return (record.suite, record.agent, record.model)


def sort_key(key: GroupKey) -> tuple[str, str, str]:
    return (key[0], key[1], key[2] or "")


def load_runs(dirs: Sequence[Path], *, prefer: Prefer | None = None) -> LoadedRuns:
    """Read every directory; raise ReportInputError for a missing, foreign or empty run, a line that is not a
    record (FILE:LINE), or trial ids recorded differently in two directories unless `prefer` says which to
    keep (merge.py)."""
    if not dirs:
        raise ReportInputError("give at least one run directory")
    warnings: list[str] = []
    trials: list[TrialSummary] = []
    errors: list[ErrorRecord] = []
    declared: dict[GroupKey, int] = {}
    declared_tasks: dict[str, int] = {}
    for path in dirs:
        manifest = _read_manifest(path, warnings)
        # Within a directory the last record of a trial id is the effective one (a rerun supersedes).
        latest = {t.trial_id: t for t in _read_lines(path / TRIALS, read_summary, warnings)}
        dir_trials = list(latest.values())
        dir_errors = list(_read_lines(path / ERRORS, _error, warnings))
        if not dir_trials and not dir_errors:
            warnings.append(f"{path}: the run is empty (no finished attempts and no errors yet)")
        _declare(manifest, [*dir_trials, *dir_errors], declared, declared_tasks)
        trials += dir_trials
        errors += dir_errors
    if not trials and not errors:
        names = ", ".join(str(p) for p in dirs)
        raise ReportInputError(f"{names}: nothing to report: the run has no finished attempts and no errors yet")
    unique_trials = _dedupe_trials(trials, prefer, warnings)
    finished = {t.trial_id for t in unique_trials}
    outstanding = _dedupe_errors([e for e in errors if e.trial_id not in finished])
    _check_task_coverage(unique_trials, outstanding, declared_tasks, warnings)
    return LoadedRuns(unique_trials, outstanding, declared, warnings)


def _read_manifest(path: Path, warnings: list[str]) -> Manifest | None:
    if not path.exists():
        raise ReportInputError(f"{path}: no such directory")
    if not path.is_dir():
        raise ReportInputError(f"{path}: not a directory; give a statebox run directory")
    manifest_path = path / MANIFEST
    if not manifest_path.exists():
        if not (path / TRIALS).exists():
            raise ReportInputError(f"{path}: not a statebox run directory (no {MANIFEST} or {TRIALS})")
        warnings.append(f"{path}: no {MANIFEST}; the intended number of repeats is unknown")
        return None
    try:
        return RunDir(path).manifest()
    except RunDirError as e:
        raise ReportInputError(str(e)) from None


def _read_lines(path: Path, read: Callable[[str, RecordAt], Read], warnings: list[str]) -> Iterator[Read]:
    """The records of a .jsonl file, streamed by the store's reader: a line torn by a killed writer is
    skipped and counted in one warning; any other line that is not a record is refused, naming FILE:LINE."""
    torn: list[Line] = []
    try:
        yield from read_jsonl(path, lambda line: read(line.text, _record_at(path, line)), torn.append)
    except RunDirError as e:
        raise ReportInputError(str(e)) from None
    if torn:
        lines = ", ".join(str(line.number) for line in torn)
        warnings.append(f"{path}: skipped {len(torn)} torn line{'s' if len(torn) != 1 else ''} "
                        f"(line {lines}: a writer killed mid-line)")  # fmt: skip


def _record_at(path: Path, line: Line) -> RecordAt:
    return RecordAt(path, line.number, line.offset, line.length)


def _error(text: str, at: RecordAt) -> ErrorRecord:
    return parse_record(text, ErrorRecord)


class FullRecords:
    """Reads whole trial records back from where `load_runs` found them, each file kept open while in use."""

    def __init__(self) -> None:
        self._files: dict[Path, BinaryIO] = {}

    def read(self, summary: TrialSummary) -> TrialRecord:
        """The whole record of `summary`; ReportInputError naming file:line if its line no longer reads as one."""
        return self.read_as(summary, TrialRecord)

    def read_as(self, summary: TrialSummary, model: type[Full]) -> Full:
        """The record of `summary` as `model` (a record model with a trial_id, validated from the line)."""
        at = summary.at
        f = self._files.get(at.path)
        if f is None:
            try:
                f = self._files[at.path] = at.path.open("rb")
            except OSError as e:
                raise ReportInputError(f"{at.path}: cannot read it again for the transcripts: {e.strerror}") from None
        f.seek(at.offset)
        text = f.read(at.length).decode("utf-8", errors="replace").removesuffix("\n")
        try:
            record = _full_record(text, model)
        except ValueError as e:
            raise ReportInputError(f"{at.path}:{at.line}: {e}") from None
        if getattr(record, "trial_id", None) != summary.trial_id:
            raise ReportInputError(f"{at.path}:{at.line}: the file changed while the report was being made")
        return record

    def close(self) -> None:
        for f in self._files.values():
            f.close()
        self._files.clear()

    def __enter__(self) -> FullRecords:
        return self

    def __exit__(self, kind: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


def _declare(
    manifest: Manifest | None,
    records: Sequence[TrialSummary | ErrorRecord],
    declared: dict[GroupKey, int],
    declared_tasks: dict[str, int],
) -> None:
    """Remember the repeats the manifest asked for, for every group this directory holds."""
    if manifest is None:
        return
    repeat, tasks, suite = manifest.repeat, manifest.tasks, manifest.suite
    for key in {group_key(r) for r in records}:
        declared[key] = max(declared.get(key, 0), repeat)
    if tasks is not None:
        declared_tasks[suite] = max(declared_tasks.get(suite, 0), tasks)


def _full_record(text: str, model: type[Full]) -> Full:
    """The line as `model`: parsed straight from JSON, or by the store's rules when that fails."""
    try:
        record = model.model_validate_json(text)
    except ValidationError:
        return parse_record(text, model)  # raises, saying why
    check_version(getattr(record, "schema_version", 1))
    return record


def _dedupe_trials(trials: list[TrialSummary], prefer: Prefer | None, warnings: list[str]) -> list[TrialSummary]:
    """One record per trial id (merge.py); only duplicates are read whole, to compare their content."""
    with FullRecords() as full:
        try:
            chosen, notes = resolve_duplicates(trials, full.read, prefer)
        except MergeConflict as e:
            raise ReportInputError(str(e)) from None
    warnings += notes
    return sorted(chosen, key=lambda t: (*sort_key(group_key(t)), t.task_id, t.repeat, t.trial_id))


def _dedupe_errors(errors: list[ErrorRecord]) -> list[ErrorRecord]:
    """The latest error of each trial id (ties broken by content, not by line order)."""
    latest: dict[str, ErrorRecord] = {}
    for e in sorted(errors, key=lambda e: (e.at, e.model_dump_json())):
        latest[e.trial_id] = e
    return sorted(latest.values(), key=lambda e: (*sort_key(group_key(e)), e.task_id, e.repeat, e.trial_id))


def _check_task_coverage(
    trials: list[TrialSummary], errors: list[ErrorRecord], declared_tasks: dict[str, int], warnings: list[str]
) -> None:
    seen: dict[str, set[str]] = defaultdict(set)
    records: list[TrialSummary | ErrorRecord] = [*trials, *errors]
    for r in records:
        seen[r.suite].add(r.task_id)
    for suite, tasks in sorted(declared_tasks.items()):
        if suite in seen and len(seen[suite]) < tasks:
            warnings.append(
                f"suite {suite}: the manifest lists {tasks} tasks but only {len(seen[suite])} have records; "
                "tasks with none are not in the report"
            )
