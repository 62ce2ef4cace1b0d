"""The run directory (a contract): manifest.json, trials.jsonl and errors.jsonl, append-only and flushed."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TypeVar

from pydantic import BaseModel, ValidationError

from statebox.runner.manifest import Manifest
from statebox.runner.record import SCHEMA_VERSION, ErrorRecord, TrialRecord

MANIFEST, TRIALS, ERRORS = "manifest.json", "trials.jsonl", "errors.jsonl"
DIGEST = "trials.digest"  # the chained digest of trials.jsonl (see the section at the end of this file)
# Appended by `repair()` to a line torn by a killed writer: readers skip such lines (and only those).
TORN_MARK = " <- torn: the writer was killed mid-line; statebox skips this line"
Record = TypeVar("Record", bound=BaseModel)
Read = TypeVar("Read")


class RunDirError(ValueError):
    """A run directory that cannot be used as asked."""


class RunDir:
    """Reads and appends the files of one run directory."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def exists(self) -> bool:
        return (self.path / MANIFEST).exists() or (self.path / TRIALS).exists()

    def manifest(self) -> Manifest:
        """The run's manifest; RunDirError naming the file if it is missing, not JSON, not a manifest, or of a
        schema version newer than this statebox's (one without `schema_version` is version 1)."""
        path = self.path / MANIFEST
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise RunDirError(f"{self.path}: no {MANIFEST}; is this a statebox run directory?") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise RunDirError(f"{path}: cannot read the manifest: {e}") from None
        if not isinstance(data, dict):
            raise RunDirError(f"{path}: cannot read the manifest: not a JSON object")
        try:
            check_version(data.get("schema_version", 1))
            return Manifest.model_validate({"schema_version": 1, **data})
        except ValidationError as e:
            raise RunDirError(f"{path}: not a valid manifest ({_first_problem(e)})") from None
        except ValueError as e:
            raise RunDirError(f"{path}: {e}") from None

    def write_manifest(self, manifest: Manifest) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        tmp = self.path / (MANIFEST + ".tmp")
        tmp.write_text(json.dumps(manifest.as_json(), indent=2, sort_keys=True))
        os.replace(tmp, self.path / MANIFEST)

    def check_resumable(self, new: Manifest) -> None:
        """Refuse to resume under a manifest that differs in anything that changes results."""
        old = self.manifest()  # refuses a newer schema version, naming the file
        if diffs := old.differences(new):
            mine, theirs = old.as_json(), new.as_json()
            detail = "; ".join(f"{k}: {mine.get(k)!r} -> {theirs.get(k)!r}" for k in diffs[:5])
            raise RunDirError(f"{self.path}: cannot resume: the campaign differs from the one recorded ({detail})")
        if new.repeat < old.repeat:
            raise RunDirError(
                f"{self.path}: cannot resume with fewer repeats ({new.repeat}) than recorded ({old.repeat})"
            )

    def trials(self) -> list[TrialRecord]:
        """The effective trial of each finished attempt: the last record per trial id (a rerun of a
        simulator fault supersedes the flagged record, which stays in the file). A line that cannot be
        read is refused (RunDirError)."""
        return latest_per_trial(read_records(self.path / TRIALS, TrialRecord))

    def errors(self) -> list[ErrorRecord]:
        return list(read_records(self.path / ERRORS, ErrorRecord))

    def repair(self) -> None:
        """Before appending to a run that may have been killed: end any torn last line."""
        _repair_torn_tail(self.path / TRIALS)
        _repair_torn_tail(self.path / ERRORS)

    def append_trial(self, record: TrialRecord) -> None:
        self.append_trials([record])

    def append_trials(self, records: Sequence[TrialRecord]) -> None:
        """Trials in order, with one lock and one write per file for the whole batch: the same bytes
        as one `append_trial` each, at a fraction of the system calls (the Ray driver's batches)."""
        self.append_trial_lines([(record.trial_id, record.model_dump_json()) for record in records])

    def append_trial_lines(self, lines: Sequence[tuple[str, str]]) -> None:
        """(trial id, `TrialRecord.model_dump_json()`) pairs serialised where the records were made (a Ray
        worker): appended as they are, with their digests, as `append_trials` would."""
        if not lines:
            return
        for trial, line in lines:
            if "\n" in line or not line.startswith('{"schema_version":') or not line.endswith("}"):
                raise RunDirError(f"{trial}: not a trial record line: {line[:80]!r}")
        with _DigestLock(self.path / DIGEST) as fd:  # the lines and their digests, one writer at a time
            _append(self.path / TRIALS, "".join(line + "\n" for _, line in lines))
            _append_digests(fd, list(lines))

    def append_error(self, record: ErrorRecord) -> None:
        self.append_errors([record])

    def append_errors(self, records: Sequence[ErrorRecord]) -> None:
        """Errors in order, in one write."""
        if records:
            _append(self.path / ERRORS, "".join(record.model_dump_json() + "\n" for record in records))

    def rewrite_errors(self, records: list[ErrorRecord]) -> None:
        tmp = self.path / (ERRORS + ".tmp")
        tmp.write_text("".join(r.model_dump_json() + "\n" for r in records))
        os.replace(tmp, self.path / ERRORS)


def latest_per_trial(records: Iterable[TrialRecord]) -> list[TrialRecord]:
    """The last record of each trial id, in the order the trial ids first appear."""
    latest: dict[str, TrialRecord] = {}
    for rec in records:
        latest[rec.trial_id] = rec
    return list(latest.values())


def read_records(path: Path, model: type[Record], torn: Callable[[Line], None] | None = None) -> Iterator[Record]:
    """The records of a .jsonl file as `model`, in order, by `read_jsonl`'s rules."""
    return read_jsonl(path, lambda line: parse_record(line.text, model), torn)


def read_jsonl(path: Path, read: Callable[[Line], Read], torn: Callable[[Line], None] | None = None) -> Iterator[Read]:
    """What `read` makes of each line of a .jsonl file, in order: the one reader of trials.jsonl and errors.jsonl.

    Skipped: blank lines, and lines torn by a killed writer (a line a repair marked as torn, or an
    unterminated last line that does not read), each passed to `torn` if given. Any other line `read`
    refuses (ValueError) is a RunDirError `FILE:LINE: why`, never skipped (docs/contracts.md)."""
    for line in read_lines(path):
        if line.torn:
            if torn is not None:
                torn(line)
            continue
        try:
            yield read(line)
        except ValueError as e:
            if not line.unterminated:
                raise RunDirError(f"{path}:{line.number}: {e}") from None
            if torn is not None:  # torn by a kill (or still being written); a resume repairs it first
                torn(line)


@dataclass(frozen=True)
class Line:
    """One line of a .jsonl file that may hold a record: where it is (1-based number, byte offset and
    length, newline included) and its text without the newline."""

    number: int
    offset: int
    length: int
    text: str
    unterminated: bool  # the last line, with no newline after it: a torn write when it does not parse

    @property
    def torn(self) -> bool:
        """A line a repair marked as torn by a killed writer: not a record."""
        return self.text.endswith(TORN_MARK)


def read_lines(path: Path) -> Iterator[Line]:
    """The non-blank lines of a .jsonl file, streamed."""
    try:
        f = path.open("rb")
    except FileNotFoundError:
        return
    with f:
        offset = 0
        for number, raw in enumerate(f, 1):
            ended = raw.endswith(b"\n")
            text = (raw[:-1] if ended else raw).decode("utf-8", errors="replace")  # a torn line may split a character
            if text.strip():
                yield Line(number, offset, len(raw), text, not ended)
            offset += len(raw)


def parse_record(line: str, model: type[Record]) -> Record:
    """One line as a record; ValueError says in a few words why it is not one."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as e:
        raise ValueError(f"not a JSON record ({e.msg} at column {e.colno}); remove or repair the line") from None
    if not isinstance(data, dict):
        raise ValueError("not a JSON object; remove or repair the line")
    check_version(data.get("schema_version", 1))  # records from before schema versions are version 1
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise ValueError(f"not a valid {model.__name__} ({_first_problem(e)}); remove or repair the line") from None


def _first_problem(e: ValidationError) -> str:
    """`where: what` of a validation error's first problem."""
    first = e.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "record"
    return f"{where}: {first['msg']}"


def check_version(version: object) -> None:
    """ValueError unless `version` is a record schema version this statebox reads."""
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= SCHEMA_VERSION:
        raise ValueError(
            f"schema_version {version!r}, but this statebox reads versions 1 to {SCHEMA_VERSION}; "
            "read it with the statebox that wrote it"
        )


def _append(path: Path, lines: str) -> None:
    """Whole lines (each ending with a newline) in one unbuffered write: a killed process loses at most
    the attempts in flight and the batch being written (a torn last line is repaired before resuming)."""
    data = memoryview(lines.encode())
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        while data:
            data = data[os.write(fd, data) :]
    finally:
        os.close(fd)


def _repair_torn_tail(path: Path) -> None:
    """If a previous writer died mid-line, end that line, marked as torn, so the next record starts
    cleanly and readers know to skip it (an unmarked unreadable line is refused)."""
    try:
        with path.open("rb+") as f:
            tail = _last_line(f)
            if tail is None:
                return
            try:
                json.loads(tail)
                ending = b"\n"  # a whole record whose newline was lost
            except ValueError:
                ending = TORN_MARK.encode() + b"\n"
            f.seek(0, os.SEEK_END)
            f.write(ending)
    except FileNotFoundError:
        pass


def _last_line(f: BinaryIO) -> bytes | None:
    """The file's unterminated last line, or None when it ends with a newline (or is empty)."""
    end = f.seek(0, os.SEEK_END)
    if end == 0 or (f.seek(end - 1), f.read(1))[1] == b"\n":
        return None
    start, chunk = end, 1 << 16
    while start > 0:
        start = max(0, start - chunk)
        f.seek(start)
        block = f.read(end - start)
        if (cut := block.rfind(b"\n")) != -1:
            return block[cut + 1 :]
    f.seek(0)
    return f.read(end)


# --- The chained digest of trials.jsonl (docs/contracts.md, "The trial digest") -----------------------
# trials.digest has one JSON line per trial line appended: {"trial_id", "sha256"}, where sha256 chains
# the previous entry's digest with the exact text of the trial line. `statebox verify` recomputes it,
# so a trial line edited, removed or reordered afterwards is found.
DIGEST_SEED = hashlib.sha256(b"statebox trials.digest v1").hexdigest()


def chain_digest(previous: str, line: str) -> str:
    """The digest of one trial line, given the digest of the line before it (DIGEST_SEED for the first)."""
    return hashlib.sha256(f"{previous}\n{line}".encode()).hexdigest()


class _DigestLock:
    """The digest file, open for appending and exclusively locked (workers append from several processes)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd = -1

    def __enter__(self) -> int:
        self.fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self.fd

    def __exit__(self, *exc: object) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


def _append_digests(fd: int, trials: list[tuple[str, str]]) -> None:
    """The digest entries of (trial id, trial line) pairs just appended, chained in order, in one write."""
    previous, entries = _last_digest(fd), []
    for trial, line in trials:
        previous = chain_digest(previous, line)
        entries.append(json.dumps({"trial_id": trial, "sha256": previous}) + "\n")
    data = memoryview("".join(entries).encode())
    while data:
        data = data[os.write(fd, data) :]


def _last_digest(fd: int) -> str:
    """The last complete entry's digest (DIGEST_SEED when there is none); read from the file's tail only."""
    end = os.lseek(fd, 0, os.SEEK_END)
    tail = os.pread(fd, min(end, 4096), max(0, end - 4096)).decode(errors="replace")
    lines = [s for s in tail.split("\n")[:-1] if s.strip()] if tail.endswith("\n") else []
    if not lines:
        return DIGEST_SEED
    try:
        return str(json.loads(lines[-1])["sha256"])
    except (ValueError, KeyError, TypeError):
        return DIGEST_SEED  # an unreadable tail breaks the chain here, and `statebox verify` says so
