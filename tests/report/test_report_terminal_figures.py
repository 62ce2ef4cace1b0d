"""What the terminal report shows beside each figure: the counts, the denominators, intervals, and the error band."""

from pathlib import Path
from typing import Any

from rich.console import Console

from statebox.report.aggregate import report_document
from statebox.report.runs import load_runs
from statebox.report.terminal import render_report


def _text(*dirs: Path, width: int = 200) -> str:
    console = Console(width=width, record=True)
    render_report(report_document(load_runs(list(dirs))), console)
    text = console.export_text().translate({ord(c): " " for c in "│┃━╇─╭╮╰╯"})  # the table rules, not the figures
    return " ".join(text.split())


def test_the_headline_and_every_rate_say_how_many_attempts_passed(run_dir: Path) -> None:
    text = _text(run_dir)
    # the standard run: 10 of its 20 attempts pass
    assert "10/20 attempts passed" in text and "pass@1 50.0% 9.2 – 90.8 10/20" in text, text


def test_every_cost_gives_its_numerator_and_denominator(run_dir: Path) -> None:
    text = _text(run_dir)
    assert "agent cost per success $0.028" in text and "$0.28 / 10 passed" in text, text
    assert "$0.28 / 1 tasks" in text, text


def test_every_per_domain_figure_has_its_interval_in_the_table_and_in_lines(run_dir: Path) -> None:
    for width in (200, 100):
        text = _text(run_dir, width=width)
        assert "50.0% [37–63] 4/8" in text, (width, text)  # insurance pass@1, its interval, its counts
        assert "100.0% [38–100]" in text and "0.0% [0–62]" in text, (width, text)  # pass@4, pass^4
        assert "$0.04 [$6.97e-05 – $22.97] / 4 passed" in text, (width, text)


def test_a_signature_no_failed_attempt_had_reads_zero_percent(tmp_path: Path, synth: Any) -> None:
    # only r3 fails (no_state_change): tool_usage and the others have no attempt, so 0.0%, not "–"
    trials = [t for t in synth.standard_trials() if t.task_id in ("r1", "r3")]
    text = _text(synth.write_run(tmp_path / "run", trials))
    assert "signature tool_usage 0 0.0% 79.9%" in text, text


def test_with_errors_the_headline_shows_both_conventions_and_their_band(tmp_path: Path, synth: Any) -> None:
    errors = [synth.make_error("r3", 4), synth.make_error("i2", 4)]
    text = _text(synth.write_run(tmp_path / "run", synth.standard_trials(), errors, repeat=5))
    assert "errors as failures – errors excluded, and the band of their intervals" in text, text
    assert "pass@1 49.0% – 50.0% band" in text, text
