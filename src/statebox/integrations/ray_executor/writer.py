"""The driver's single writer: the records workers hand back, appended to the run directory in batches.

Every attempt that finished since the driver last looked is written together (one lock, one write per
file: `RunDir.append_trial_lines`), and a trial's line is written as the worker serialised it from the
record it built (the driver does not parse it again: validating a 6 KB record costs ~0.5 ms, ten times
its write), so the writer keeps up with thousands of records a second. Each trial id is appended once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from statebox.runner.record import ErrorRecord
from statebox.runner.store import RunDir

HandedKind = Literal["trial", "error", "stop"]
Tell = Callable[[str, str], None]  # (pass | fail | error, detail): the campaign's outcome callback


@dataclass(frozen=True)
class Handed:
    """What a worker hands back for one attempt: its trial or error record as JSON (`model_dump_json`),
    with whether the trial passed; or ("stop", why the whole run must stop)."""

    trial_id: str
    kind: HandedKind
    payload: str
    passed: bool | None = None  # trials only


@dataclass
class DriverWriter:
    """Appends workers' records to `run_dir`, a batch at a time, each trial once; tells each outcome."""

    run_dir: RunDir
    tell: Tell
    written: set[str] = field(default_factory=set)

    def write(self, batch: list[Handed]) -> None:
        """Append a batch's trials and errors (in the order given), then tell their outcomes."""
        trials: list[tuple[str, str]] = []
        errors: list[ErrorRecord] = []
        told: list[tuple[str, str]] = []
        for handed in batch:
            if handed.kind == "error":
                error = ErrorRecord.model_validate_json(handed.payload)
                errors.append(error)
                told.append(("error", f"{handed.trial_id}: {error.message}"))
            elif handed.kind == "trial" and handed.trial_id not in self.written:  # a second copy is dropped
                self.written.add(handed.trial_id)
                trials.append((handed.trial_id, handed.payload))
                told.append(("pass" if handed.passed else "fail", handed.trial_id))
        self.run_dir.append_trial_lines(trials)
        self.run_dir.append_errors(errors)
        for outcome, detail in told:
            self.tell(outcome, detail)
