"""`statebox compare A B`: paired difference, changed tasks beyond chance, flips, and what is not paired."""

from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from statebox.report.compare import compare, compare_document, pick_side, render_comparison
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


def test_compare_json_flips_are_strict_majorities_beside_their_no_change_expectation(sides: tuple[Any, Any]) -> None:
    # strict majority in A: r1, i1; in B: r1, r3, i1 (r2 at 2/4 in A and i2 at 2/4 in B are ties, not passes)
    result = compare(*sides)
    assert result["flip_rate"] == pytest.approx(1 / 5)
    assert 0 < result["expected_flip_rate"] < 1
    assert (result["only_in_a"], result["only_in_b"]) == ([], ["x9"])


def test_compare_json_gives_each_runs_interval_and_counts_over_the_paired_tasks(sides: tuple[Any, Any]) -> None:
    result = compare(*sides)
    # A passes 10 of its 20 paired attempts; B 13 of 20 (x9 is only in B, not paired)
    assert (result["passes_a"], result["passes_b"]) == ([10, 20], [13, 20])
    for side, value in (("a", 0.5), ("b", 0.65)):
        lo, hi = result[f"pass_at_1_{side}_ci"]
        assert lo < value < hi, (side, lo, hi)


def test_compare_json_gives_the_flip_count_and_its_no_change_range(sides: tuple[Any, Any]) -> None:
    result = compare(*sides)
    lo, hi = result["expected_flip_range"]
    assert result["flips"] == 1 and 0 <= lo <= result["expected_flip_rate"] <= hi <= 1, result


def test_the_terminal_comparison_shows_both_intervals_counts_and_the_flip_range(sides: tuple[Any, Any]) -> None:
    console = Console(width=200, record=True)
    render_comparison(compare_document(*sides), console)
    text = " ".join(console.export_text().translate({ord(c): " " for c in "│┃━╇─"}).split())
    assert "10/20" in text and "13/20" in text, text
    assert "majority-flip rate 20.0% (1 of 5 tasks)" in text and "95% of the time within" in text, text


def test_at_four_repeats_no_single_task_change_is_beyond_chance(sides: tuple[Any, Any]) -> None:
    # r3 goes 0/4 -> 3/4: Boschloo p = 0.07, not a discovery among 5 tasks (first threshold 0.1 / 5)
    result = compare(*sides)
    assert (result["changed"], result["gained"], result["lost"], result["changed_detail"]) == ([], [], [], [])
    assert result["fdr_level"] == 0.1


def test_changed_tasks_are_those_beyond_chance_with_their_counts(tmp_path: Path, synth: Any) -> None:
    # ten tasks from 0/4 to 4/4 (Boschloo p = 2 / 2^8 each) among fifteen; five stay 2/4
    a_patterns = {f"t{i:02d}": ("retail", "FFFF" if i < 10 else "PPFF") for i in range(15)}
    b_patterns = {f"t{i:02d}": ("retail", "PPPP" if i < 10 else "PFPF") for i in range(15)}
    a = pick_side(_run(tmp_path, synth, "a", a_patterns, "openai:base"), None)[0]
    b = pick_side(_run(tmp_path, synth, "b", b_patterns, "openai:cand"), None)[0]
    result = compare(a, b)
    assert result["changed"] == [f"t{i:02d}" for i in range(10)] == result["gained"]
    assert result["changed_detail"][0] == {
        "task_id": "t00",
        "a": [0, 4],
        "b": [4, 4],
        "p_value": pytest.approx(2 / 256),
    }


def test_tasks_whose_content_differs_are_not_paired_and_are_listed(tmp_path: Path, synth: Any) -> None:
    trials_a = [t.model_copy(update={"task_hash": f"h-{t.task_id}"}) for t in synth.standard_trials()]
    trials_b = [t.model_copy(update={"task_hash": "edited" if t.task_id == "r2" else f"h-{t.task_id}"})
                for t in synth.standard_trials("openai:cand")]  # fmt: skip
    a = pick_side(synth.write_run(tmp_path / "a", trials_a), None)[0]
    b = pick_side(synth.write_run(tmp_path / "b", trials_b), None)[0]
    result = compare(a, b)
    assert result["unpaired"] == [{"task_id": "r2", "reason": "task content differs"}]
    assert result["tasks"] == 4 and "r2" not in result["only_in_a"] + result["only_in_b"]


def test_runs_of_different_suites_pair_no_task(tmp_path: Path, synth: Any) -> None:
    a = pick_side(synth.write_run(tmp_path / "a", synth.standard_trials()), None)[0]
    other = [t.model_copy(update={"suite": "retail"}) for t in synth.standard_trials()]
    b = pick_side(synth.write_run(tmp_path / "b", other), None)[0]
    result = compare(a, b)
    assert result["tasks"] == 0 and {u["reason"] for u in result["unpaired"]} == {"suite differs"}
    assert len(result["unpaired"]) == 5


def test_a_task_whose_attempts_all_errored_is_errored_in_that_run_not_only_in_the_other(
    tmp_path: Path, synth: Any
) -> None:
    a = pick_side(synth.write_run(tmp_path / "a", synth.standard_trials()), None)[0]
    kept = [t for t in synth.standard_trials() if t.task_id != "r3"]
    errors = [synth.make_error("r3", r) for r in range(4)]
    b = pick_side(synth.write_run(tmp_path / "b", kept, errors), None)[0]
    result = compare(a, b)
    assert (result["errored_in_b"], result["only_in_a"], result["tasks"]) == (["r3"], [], 4)


def test_different_k_is_stated(tmp_path: Path, synth: Any) -> None:
    a = pick_side(synth.write_run(tmp_path / "a", synth.standard_trials()), None)[0]
    b = pick_side(synth.write_run(tmp_path / "b", synth.standard_trials(), repeat=8), None)[0]
    result = compare(a, b)
    assert (result["same_k"], result["a"]["repeats"], result["b"]["repeats"]) == (False, 4, 8)


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
