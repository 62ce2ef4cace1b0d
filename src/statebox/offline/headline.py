"""The headline numbers of a run, as `statebox report` computes them: pass@1 and pass^k per agent and model."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from statebox.report.aggregate import report_document
from statebox.report.runs import load_runs


@dataclass(frozen=True)
class Headline:
    label: str  # "agent model"
    attempts: int
    pass_at_1: float | None
    k: int
    pass_hat_k: float | None

    def describe(self) -> str:
        numbers = f"pass@1 {_pct(self.pass_at_1)}, pass^{self.k} {_pct(self.pass_hat_k)}"
        return f"{self.label}: {numbers} ({self.attempts} attempts)"


def headlines(run: Path) -> list[Headline]:
    document = report_document(load_runs([run]))
    return [
        Headline(
            label=f"{e.agent} {e.model or '-'}",
            attempts=e.attempts,
            pass_at_1=e.pass_at_1,
            k=e.repeats,
            pass_hat_k=e.pass_hat_k.get(str(e.repeats)),
        )
        for e in document.runs
    ]


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"
