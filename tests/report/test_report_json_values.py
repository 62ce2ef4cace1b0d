"""`report --json` values on the standard synthetic run, against hand-computed numbers (see conftest)."""

from pathlib import Path
from typing import Any

import pytest

from statebox.report.aggregate import build_report
from statebox.report.runs import load_runs


def _entry(path: Path, **options: Any) -> dict[str, Any]:
    runs = build_report(load_runs([path]), **options)["runs"]
    assert len(runs) == 1
    entry: dict[str, Any] = runs[0]
    return entry


def test_identity_and_counts(run_dir: Path) -> None:
    e = _entry(run_dir)
    assert (e["suite"], e["agent"], e["model"]) == ("builtin", "llm", "openai:gpt-test")
    assert (e["tasks"], e["repeats"], e["attempts"], e["infra_errors"]) == (5, 4, 20, 0)
    assert e["canonical"] is True and e["shortfall"] == [] and e["convention"] == "errors-excluded"


def test_pass_at_1_is_mean_task_rate(run_dir: Path) -> None:
    # rates 1, 0.5, 0, 0.75, 0.25 -> 2.5 / 5
    e = _entry(run_dir)
    assert e["pass_at_1"] == pytest.approx(0.5)
    lo, hi = e["pass_at_1_ci"]
    assert lo < 0.5 < hi


def test_pass_at_k_for_every_k(run_dir: Path) -> None:
    # k=2: 1, 5/6, 0, 1, 1/2 -> (10/3)/5; k=3: 1, 1, 0, 1, 3/4 -> 3.75/5; k=4: four tasks with c > 0
    assert _entry(run_dir)["pass_at_k"] == pytest.approx({"1": 0.5, "2": 2 / 3, "3": 0.75, "4": 0.8})


def test_pass_hat_k_for_every_k(run_dir: Path) -> None:
    # k=2: C(c,2)/6 = 1, 1/6, 0, 1/2, 0; k=3: C(c,3)/4 = 1, 0, 0, 1/4, 0; k=4: only r1
    assert _entry(run_dir)["pass_hat_k"] == pytest.approx({"1": 0.5, "2": 1 / 3, "3": 0.25, "4": 0.2})


def test_plugin_pass_hat_k_is_mean_rate_power(run_dir: Path) -> None:
    rates = [1, 0.5, 0, 0.75, 0.25]
    expected = {str(k): sum(r**k for r in rates) / 5 for k in range(1, 5)}
    assert _entry(run_dir)["pass_hat_k_plugin"] == pytest.approx(expected)


def test_observed_k_of_k_and_retention(run_dir: Path) -> None:
    e = _entry(run_dir)
    assert e["all_k_tasks"] == 1
    assert e["retention"] == pytest.approx(0.2 / 0.5)


def test_by_domain_has_the_same_numbers_per_domain(run_dir: Path) -> None:
    by_domain = _entry(run_dir)["by_domain"]
    assert sorted(by_domain) == ["insurance", "retail"]
    retail, insurance = by_domain["retail"], by_domain["insurance"]
    assert (retail["tasks"], retail["attempts"], insurance["tasks"], insurance["attempts"]) == (3, 12, 2, 8)
    assert retail["pass_at_1"] == pytest.approx(0.5)  # (1 + 0.5 + 0) / 3
    assert insurance["pass_at_1"] == pytest.approx(0.5)  # (0.75 + 0.25) / 2
    assert retail["pass_hat_k"]["4"] == pytest.approx(1 / 3)
    assert insurance["pass_hat_k"]["4"] == 0
    assert (retail["all_k_tasks"], insurance["all_k_tasks"]) == (1, 0)
    assert retail["signatures"] == {"no_state_change": 4, "wrong_state_update": 2}
    assert "by_domain" not in retail


def test_costs_per_role_and_per_success(run_dir: Path) -> None:
    cost = _entry(run_dir)["cost"]
    # agent: 12 retail attempts x 0.01 + 8 insurance attempts x 0.02
    assert cost["agent_usd"] == pytest.approx(0.28)
    assert cost["user_usd"] == pytest.approx(20 * 0.002)
    assert cost["judge_usd"] == pytest.approx(20 * 0.001)
    assert cost["total_usd"] == pytest.approx(0.34)
    # (sum of mean agent cost per task = 3 x 0.01 + 2 x 0.02) / (T x pass@1 = 2.5)
    assert cost["per_success_usd"] == pytest.approx(0.07 / 2.5)
    # all agent cost / 1 dependable task
    assert cost["per_dependable_task_usd"] == pytest.approx(0.28)


def test_unknown_price_gives_null_costs(tmp_path: Path, synth: Any) -> None:
    trials = synth.standard_trials()
    trials[0].cost_usd["agent"] = None
    cost = _entry(synth.write_run(tmp_path / "run", trials))["cost"]
    assert cost["agent_usd"] is None and cost["total_usd"] is None and cost["per_success_usd"] is None
    assert cost["user_usd"] == pytest.approx(0.04)


def test_signatures_and_discrepancy_kinds_count_failed_attempts(run_dir: Path) -> None:
    e = _entry(run_dir)
    assert e["signatures"] == {
        "incomplete_resolution": 3,
        "no_state_change": 4,
        "tool_usage": 1,
        "wrong_state_update": 2,
    }
    # missing_effect: r3 x4 + i1 x1 + i2 x3; extra_effect: i1 x1; wrong_value: r2 x2
    assert e["discrepancy_kinds"] == {"extra_effect": 1, "missing_effect": 8, "wrong_value": 2}


def test_curves_cover_every_k_up_to_the_repeat_count(tmp_path: Path, synth: Any) -> None:
    e = _entry(synth.write_run(tmp_path / "run", synth.standard_trials(), repeat=6))
    assert list(e["pass_at_k"]) == ["1", "2", "3", "4", "5", "6"]
    assert e["pass_hat_k"]["5"] is None  # no task has 5 attempts yet
