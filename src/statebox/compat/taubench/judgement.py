"""Grading a τ-bench attempt from the server's effects report.

`passed` is τ-bench's own reward, computed by its own code in the server (the data's hash against
the hash after replaying the task's actions on fresh data, and every required output in what the
agent said), so scores stay comparable with τ-bench's. The discrepancies are statebox's typed judge
on the same state (`typed_verdict`), plus one `missing_effect` on `(outputs)` per required output the
agent never said. The trial's effects keep the row changes, both hashes, τ-bench's reward record,
and the typed verdict with whether it agrees with the hash.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from statebox.agents.transcript import Transcript
from statebox.compat.taubench.protocol import TauEffects
from statebox.compat.taubench.typed_verdict import TypedVerdict, to_json, typed_verdict
from statebox.judge import Discrepancy, Verdict

OUTPUTS_TABLE = "(outputs)"


@dataclass(frozen=True)
class TauJudgement:
    verdict: Verdict
    typed: TypedVerdict
    effects: dict[str, Any]
    requires_changes: bool  # the replay of the task's actions changes the data
    changed: bool  # the attempt changed the data


def responses(transcript: Transcript) -> list[str]:
    """What the agent said to the customer, in order: τ-bench's `respond` actions."""
    return [e.content for e in transcript.entries if e.role == "agent" and e.content and not e.tool_calls]


def judge_effects(report: TauEffects) -> TauJudgement:
    typed = typed_verdict(report.changes, report.golden_changes)
    missing = [o for o, said in (report.outputs or {}).items() if not said]
    found = typed.discrepancies + [
        Discrepancy(kind="missing_effect", table=OUTPUTS_TABLE, key=output, expected=output) for output in missing
    ]
    verdict = Verdict(
        passed=report.reward == 1.0,
        discrepancies=found,
        state_hash=report.state_hash,
        expected_hash=report.gt_data_hash,
    )
    effects: dict[str, Any] = {
        **to_json(report.changes),
        "tau_bench": {
            "reward": report.reward,
            "r_actions": report.r_actions,
            "outputs": report.outputs,
            "state_hash": report.state_hash,
            "gt_data_hash": report.gt_data_hash,
            "golden_changes": to_json(report.golden_changes),
        },
        "typed": typed.to_json(report.r_actions),
    }
    return TauJudgement(verdict, typed, effects, bool(report.golden_changes), bool(report.changes))
