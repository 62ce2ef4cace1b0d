"""`statebox compare A B`: paired pass@1 difference, flip rate and changed tasks on synthetic runs."""

from pathlib import Path
from typing import Any

import pytest

from statebox.report.compare import compare, pick_side
from statebox.report.runs import ReportInputError

# Rates in A (the standard run): r1 1, r2 .5, r3 0, i1 .75, i2 .25.
# In B: r2 drops to .25 (lost), r3 rises to .75 and i2 to .5 (gained); x9 exists only in B.
B_PATTERNS = {
    "r1": ("retail", "PPPP"),
    "r2": ("retail", "FFFP"),
    "r3": ("retail", "PPPF"),
    "i1": ("insurance", "PPPF"),
    "i2": ("insurance", "FFPP"),
    "x9": ("retail", "PPPP"),
}


def _run(tmp_path: Path, synth: Any, name: str, patterns: dict[str, tuple[str, str]], model: str) -> Path:
    trials = [
        synth.make_trial(task, domain, r, mark == "P", model=model, signature="wrong_state_update")
        for task, (domain, pattern) in patterns.items()
        for r, mark in enumerate(pattern)
    ]
    return synth.write_run(tmp_path / name, trials)


@pytest.fixture
def sides(tmp_path: Path, synth: Any) -> tuple[Any, Any]:
    a = _run(tmp_path, synth, "a", synth.PATTERNS, "openai:base")
    b = _run(tmp_path, synth, "b", B_PATTERNS, "openai:cand")
    return pick_side(a, None)[0], pick_side(b, None)[0]


def test_compare_json_has_the_paired_difference(sides: tuple[Any, Any]) -> None:
    result = compare(*sides)
    assert result["tasks"] == 5
    assert result["pass_at_1_a"] == pytest.approx(0.5)
    assert result["pass_at_1_b"] == pytest.approx(3.25 / 5)
    assert result["diff"] == pytest.approx(0.15)
    lo, hi = result["diff_ci"]
    assert lo <= 0.15 <= hi


def test_compare_json_lists_flips(sides: tuple[Any, Any]) -> None:
    result = compare(*sides)
    assert result["flip_rate"] == pytest.approx(3 / 5)
    assert result["changed"] == ["i2", "r2", "r3"]
    assert (result["gained"], result["lost"]) == (["i2", "r3"], ["r2"])
    assert (result["only_in_a"], result["only_in_b"]) == ([], ["x9"])


def test_compare_names_both_runs(sides: tuple[Any, Any]) -> None:
    result = compare(*sides)
    assert result["a"]["model"] == "openai:base" and result["b"]["model"] == "openai:cand"
    assert result["a"]["dir"].endswith("a") and result["b"]["suite"] == "builtin"


def test_a_directory_with_several_models_compares_the_first_and_says_so(tmp_path: Path, synth: Any) -> None:
    trials = synth.standard_trials("openai:zeta") + synth.standard_trials("anthropic:alpha")
    path = synth.write_run(tmp_path / "both", trials)
    side, _ = pick_side(path, None)
    assert side.group.model == "anthropic:alpha"
    assert side.note is not None and "choose with --model" in side.note
    chosen, _ = pick_side(path, "openai:zeta")
    assert chosen.group.model == "openai:zeta" and chosen.note is None


def test_an_unknown_model_is_named(run_dir: Path) -> None:
    with pytest.raises(ReportInputError, match=r"no run of model 'gpt-9' \(it holds: openai:gpt-test\)"):
        pick_side(run_dir, "gpt-9")
