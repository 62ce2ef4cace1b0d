"""The headline numbers of a run, as `statebox report` computes them: pass@1 and pass^k per agent and model,
each with its passes and attempts, and the band of both error conventions when an attempt errored."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from statebox.report.aggregate import report_document
from statebox.report.models import RunEntry
from statebox.report.runs import load_runs


@dataclass(frozen=True)
class Headline:
    label: str  # "agent model"
    attempts: int
    pass_at_1: float | None
    k: int
    pass_hat_k: float | None
    passes: int = 0
    band: str = ""  # "errors as failures X – excluded Y" for pass^k, when an attempt errored

    def describe(self) -> str:
        numbers = f"pass@1 {_pct(self.pass_at_1)} ({self.passes}/{self.attempts} attempts passed)"
        numbers += f", pass^{self.k} {_pct(self.pass_hat_k)}" + (f" ({self.band})" if self.band else "")
        return f"{self.label}: {numbers}"


def _band(entry: RunEntry) -> str:
    band = entry.error_band
    if band is None:
        return ""
    key = str(entry.repeats)
    low, high = band.errors_as_failures.pass_hat_k.get(key), band.errors_excluded.pass_hat_k.get(key)
    return f"errors as failures {_pct(low)} – excluded {_pct(high)}"


def headlines(run: Path) -> list[Headline]:
    document = report_document(load_runs([run]))
    return [
        Headline(
            label=f"{e.agent} {e.model or '-'}",
            attempts=e.attempts,
            pass_at_1=e.pass_at_1,
            k=e.repeats,
            pass_hat_k=e.pass_hat_k.get(str(e.repeats)),
            passes=e.passes,
            band=_band(e),
        )
        for e in document.runs
    ]


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"
