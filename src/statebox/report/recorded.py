"""Imported runs: how often statebox's verdict agrees with the verdict the source recorded, and why not.

Only directories whose manifest says `imported` have recorded verdicts (`statebox import`). An
attempt whose recording never finished (cut off) has no recorded verdict and is counted apart.
A disagreement's reason names what statebox found (its first discrepancies, or none) against what
was recorded, and, for τ-bench, when the checkout's replay of the task's actions hashes otherwise
than the recording's (the data changed since).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from statebox.runner.record import TrialRecord
from statebox.runner.store import RunDir


@dataclass(frozen=True)
class Disagreement:
    trial_id: str
    record: int
    recorded: bool
    statebox: bool
    reason: str


@dataclass
class RecordedAgreement:
    """One imported run: attempts with a recorded verdict, how many statebox agrees on, each disagreement."""

    run: Path
    format: str
    attempts: int = 0
    agreeing: int = 0
    cut_off: int = 0  # recordings that never finished: no recorded verdict
    other_data: int = 0  # τ-bench: the recorded gt_data_hash differs from the checkout's replay
    disagreements: list[Disagreement] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "run": str(self.run),
            "format": self.format,
            "attempts": self.attempts,
            "agreeing": self.agreeing,
            "cut_off": self.cut_off,
            "other_data": self.other_data,
            "disagreements": [d.__dict__ for d in self.disagreements],
        }


def recorded_agreements(dirs: Sequence[Path]) -> list[RecordedAgreement]:
    """The agreement of every imported run among `dirs` (others are left out)."""
    found = []
    for path in dirs:
        run = RunDir(path)
        imported = run.manifest().imported if (path / "manifest.json").is_file() else None
        if imported is not None:
            found.append(agreement(path, imported.format, run.trials()))
    return found


def agreement(path: Path, fmt: str, trials: list[TrialRecord]) -> RecordedAgreement:
    result = RecordedAgreement(path, fmt)
    latest = {t.trial_id: t for t in trials}
    for t in sorted(latest.values(), key=lambda t: t.recorded.record if t.recorded else -1):
        recorded = t.recorded
        if recorded is None:
            continue
        result.other_data += _other_data(t)
        if recorded.passed is None:
            result.cut_off += 1
            continue
        result.attempts += 1
        if recorded.passed == t.passed:
            result.agreeing += 1
        else:
            result.disagreements.append(
                Disagreement(t.trial_id, recorded.record, recorded.passed, t.passed, _reason(t))
            )
    return result


def _other_data(t: TrialRecord) -> int:
    recorded = (t.recorded.detail if t.recorded else {}).get("gt_data_hash")
    replayed = (t.effects.get("tau_bench") or {}).get("gt_data_hash")
    return int(bool(recorded and replayed and recorded != replayed))


def _reason(t: TrialRecord) -> str:
    recorded = t.recorded
    assert recorded is not None
    said = f"recorded {'pass' if recorded.passed else 'fail'} (reward {recorded.reward})"
    if t.passed:
        mine = "statebox passes it"
    else:
        shown = "; ".join(d.describe()[:140] for d in t.discrepancies[:3])
        mine = f"statebox fails it ({t.signature}: {shown or 'no discrepancy: the hashes differ'})"
    detail = f"; recorded {recorded.detail}" if recorded.detail else ""
    data = (
        "; the checkout's replay of the task hashes otherwise than the recording's (the data changed)"
        if _other_data(t)
        else ""
    )
    return f"{said}, {mine}{detail}{data}"


def render_recorded(agreements: list[RecordedAgreement], console: Console) -> None:
    """The section `statebox report` prints under the report for imported runs."""
    for a in agreements:
        share = f" ({a.agreeing / a.attempts:.1%})" if a.attempts else ""
        console.print(
            f"imported from {a.format} ({escape(str(a.run))}): statebox agrees with the recorded verdict "
            f"on {a.agreeing}/{a.attempts} finished attempts{share}; {a.cut_off} cut off (no recorded verdict)",
            highlight=False,
        )
        if a.other_data:
            console.print(
                f"  note: on {a.other_data} attempts the recording's replay of the task hashed otherwise than "
                "this checkout's: the data changed since; both verdicts come from replaying the calls",
                highlight=False,
            )
        for d in a.disagreements:
            console.print(f"  disagrees: {escape(d.trial_id)} (record {d.record}): {escape(d.reason)}", highlight=False)
