"""The run directory (a contract): manifest.json, trials.jsonl and errors.jsonl, append-only and flushed."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from statebox.runner.record import ErrorRecord, TrialRecord

MANIFEST, TRIALS, ERRORS = "manifest.json", "trials.jsonl", "errors.jsonl"
# Manifest keys that may differ when resuming.
RESUMABLE_KEYS = frozenset({"repeat", "concurrency", "workers", "tools_via", "started_at", "resumed_at"})


class RunDirError(ValueError):
    """A run directory that cannot be used as asked."""


class RunDir:
    """Reads and appends the files of one run directory."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def exists(self) -> bool:
        return (self.path / MANIFEST).exists() or (self.path / TRIALS).exists()

    def manifest(self) -> dict[str, Any]:
        try:
            data: dict[str, Any] = json.loads((self.path / MANIFEST).read_text())
            return data
        except FileNotFoundError:
            raise RunDirError(f"{self.path}: no {MANIFEST}; is this a statebox run directory?") from None
        except json.JSONDecodeError as e:
            raise RunDirError(f"{self.path / MANIFEST}: not valid JSON: {e}") from None

    def write_manifest(self, manifest: dict[str, Any]) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        tmp = self.path / (MANIFEST + ".tmp")
        tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True, default=str))
        os.replace(tmp, self.path / MANIFEST)

    def check_resumable(self, new: dict[str, Any]) -> None:
        """Refuse to resume under a manifest that differs in anything that changes results."""
        old = self.manifest()
        diffs = sorted(k for k in old.keys() | new.keys() if k not in RESUMABLE_KEYS and old.get(k) != new.get(k))
        if diffs:
            detail = "; ".join(f"{k}: {old.get(k)!r} -> {new.get(k)!r}" for k in diffs[:5])
            raise RunDirError(f"{self.path}: cannot resume: the campaign differs from the one recorded ({detail})")
        if int(new.get("repeat", 0)) < int(old.get("repeat", 0)):
            raise RunDirError(
                f"{self.path}: cannot resume with fewer repeats ({new.get('repeat')}) "
                f"than recorded ({old.get('repeat')})"
            )

    def trials(self) -> list[TrialRecord]:
        """Finished attempts, first record per trial id (a torn last line from a kill is skipped)."""
        seen: dict[str, TrialRecord] = {}
        for line in _lines(self.path / TRIALS):
            try:
                rec = TrialRecord.model_validate_json(line)
            except ValidationError:
                continue
            seen.setdefault(rec.trial_id, rec)
        return list(seen.values())

    def errors(self) -> list[ErrorRecord]:
        out = []
        for line in _lines(self.path / ERRORS):
            try:
                out.append(ErrorRecord.model_validate_json(line))
            except ValidationError:
                continue
        return out

    def repair(self) -> None:
        """Before appending to a run that may have been killed: end any torn last line."""
        _repair_torn_tail(self.path / TRIALS)
        _repair_torn_tail(self.path / ERRORS)

    def append_trial(self, record: TrialRecord) -> None:
        _append(self.path / TRIALS, record.model_dump_json())

    def append_error(self, record: ErrorRecord) -> None:
        _append(self.path / ERRORS, record.model_dump_json())

    def rewrite_errors(self, records: list[ErrorRecord]) -> None:
        tmp = self.path / (ERRORS + ".tmp")
        tmp.write_text("".join(r.model_dump_json() + "\n" for r in records))
        os.replace(tmp, self.path / ERRORS)


def _lines(path: Path) -> list[str]:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")  # a torn last line may split a character
    except FileNotFoundError:
        return []
    return [ln for ln in text.splitlines() if ln.strip()]


def _append(path: Path, line: str) -> None:
    """One whole line per unbuffered write: a killed process loses at most the attempts in flight."""
    data = memoryview((line + "\n").encode())
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        while data:
            data = data[os.write(fd, data) :]
    finally:
        os.close(fd)


def _repair_torn_tail(path: Path) -> None:
    """If a previous writer died mid-line, end that line so the next record starts cleanly."""
    try:
        with path.open("rb+") as f:
            f.seek(0, os.SEEK_END)
            if f.tell() and (f.seek(-1, os.SEEK_END), f.read(1))[1] != b"\n":
                f.write(b"\n")
    except FileNotFoundError:
        pass
