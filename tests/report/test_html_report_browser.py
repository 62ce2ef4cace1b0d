"""The HTML report in a real headless Chromium (Debian's `chromium`, driven by Playwright).

The plotted values and the drill-down must match numbers computed here straight from the trial
records. In CI (CI=true) a missing browser fails this module; elsewhere it is skipped.
"""

from __future__ import annotations

import json
import os
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from statebox.metrics import (
    TaskCounts,
    cost_per_successful_attempt,
    mean_pass_at_k,
    mean_pass_hat_k,
    pass_at_1,
)
from statebox.report.aggregate import build_report
from statebox.report.html import write_html
from statebox.report.html_chunks import ChunkLimits
from statebox.report.runs import load_runs
from statebox.runner.record import TrialRecord

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
MODELS = ("openai:gpt-test", "anthropic:claude-test")
LOADED = '#attempt-view[data-loaded="true"]'  # set once the attempt's chunk is read and its detail drawn


def _require_browser() -> Any:
    """Playwright's sync API, or skip (locally) / fail (in CI) naming what is missing."""
    problem = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        problem = "the playwright Python package is not installed (pip install -e '.[dev]')"
    if problem is None and not CHROMIUM.exists():
        problem = f"{CHROMIUM} is missing: apt-get install -y chromium"
    if problem is not None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"the HTML report browser test cannot run in CI: {problem}")
        pytest.skip(problem)
    return sync_playwright


def _trials(synth: Any) -> list[TrialRecord]:
    """The standard run for two models; the second is pricier and passes r3 every time."""
    first = synth.standard_trials(MODELS[0])
    second = []
    for t in synth.standard_trials(MODELS[1]):
        if t.task_id == "r3":
            t = t.model_copy(update={"passed": True, "signature": None, "discrepancies": []})
        t.cost_usd["agent"] = 0.05
        second.append(t)
    return first + second


def _counts(trials: list[TrialRecord], model: str) -> list[TaskCounts]:
    mine = [t for t in trials if t.model == model]
    tasks = sorted({t.task_id for t in mine})
    return [
        TaskCounts(task, sum(t.task_id == task for t in mine), sum(t.task_id == task and t.passed for t in mine))
        for task in tasks
    ]


@pytest.fixture(scope="module")
def trials(synth: Any) -> list[TrialRecord]:
    return _trials(synth)


@dataclass
class Opened:
    """The report open in Chromium, with what the browser reported while loading it."""

    page: Any
    directory: Path
    problems: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_playwright = _require_browser()
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def opened(
    tmp_path_factory: pytest.TempPathFactory, synth: Any, trials: list[TrialRecord], browser: Any
) -> Iterator[Opened]:
    """The two-model report (40 attempts) in chunks of 8: five chunk files beside the page."""
    base = tmp_path_factory.mktemp("html")
    loaded = load_runs([synth.write_run(base / "run", trials)])
    written = write_html(base / "report.html", loaded, build_report(loaded), limits=ChunkLimits(attempts=8))
    assert len(written.chunks) == 5
    state = Opened(browser.new_page(viewport={"width": 1400, "height": 1000}), base)
    page = state.page
    page.on("console", lambda m: state.problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: state.problems.append(f"page error: {e}"))
    page.on("request", lambda r: state.requests.append(r.url))
    page.goto((base / "report.html").as_uri())
    page.wait_for_selector("html[data-ready] #drilldown")
    page.wait_for_selector(LOADED)
    yield state
    page.close()


@pytest.fixture
def page(opened: Opened) -> Any:
    return opened.page


def _open(page: Any, task_id: str, repeat: int | None = None) -> None:
    """Click a task (and one of its attempts) and wait until the attempt's chunk is read and drawn."""
    page.click(f'tr.task-row[data-task-id="{task_id}"]')
    if repeat is not None:
        page.click(f'#attempt-buttons button.attempt[data-repeat="{repeat}"]')
    page.wait_for_selector("#attempt-view[data-loaded]")
    assert page.get_attribute("#attempt-view", "data-loaded") == "true", page.inner_text("#attempt-view")


def _points(page: Any, selector: str) -> list[dict[str, str]]:
    return list(page.eval_on_selector_all(selector, "nodes => nodes.map(n => ({...n.dataset}))"))


def test_screenshot_is_a_real_picture(opened: Opened) -> None:
    shot = opened.directory / "report.png"
    opened.page.screenshot(path=str(shot), full_page=True)
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert width >= 1000 and height >= 1500, (width, height)
    assert len(data) > 50_000, f"suspiciously small screenshot: {len(data)} bytes"


def test_no_console_errors_page_errors_or_network(opened: Opened) -> None:
    assert opened.problems == []
    assert all(url.startswith("file://") for url in opened.requests), opened.requests
    assert opened.page.evaluate("window.__pwned") is None


def test_curve_points_match_the_trial_records(page: Any, trials: list[TrialRecord]) -> None:
    points = _points(page, "circle.curve-point")
    assert len(points) == 2 * 2 * 4  # two models x (pass@k, pass^k) x k = 1..4
    for p in points:
        counts = _counts(trials, p["model"])
        estimator = mean_pass_at_k if p["metric"] == "pass_at_k" else mean_pass_hat_k
        assert float(p["value"]) == pytest.approx(estimator(counts, int(p["k"]))), p


def test_breadth_points_are_pass_at_n_against_pass_hat_n(page: Any, trials: list[TrialRecord]) -> None:
    points = {p["model"]: p for p in _points(page, "circle.breadth-point")}
    assert sorted(points) == sorted(MODELS)
    for model, p in points.items():
        counts = _counts(trials, model)
        assert (p["k"], float(p["passAtK"])) == ("4", pytest.approx(mean_pass_at_k(counts, 4)))
        assert float(p["passHatK"]) == pytest.approx(mean_pass_hat_k(counts, 4))


def test_pareto_points_and_frontier(page: Any, trials: list[TrialRecord]) -> None:
    points = {p["model"]: p for p in _points(page, "circle.pareto-point")}
    for model, p in points.items():
        mine = [t for t in trials if t.model == model]
        spend: dict[str, float | None] = {}
        for t in mine:
            spend[t.task_id] = (spend.get(t.task_id) or 0.0) + (t.cost_usd["agent"] or 0.0)
        counts = _counts(trials, model)
        expected = cost_per_successful_attempt(counts, spend, repeats=4)
        assert expected is not None and float(p["cost"]) == pytest.approx(expected.estimate)
        assert float(p["value"]) == pytest.approx(pass_at_1(counts))
    # gpt is cheaper, claude more accurate: neither dominates the other
    assert {p["frontier"] for p in points.values()} == {"true"}


def test_signature_bars_are_shares_of_failed_attempts(page: Any, trials: list[TrialRecord]) -> None:
    bars = _points(page, "rect.signature-bar")
    for bar in bars:
        failed = [t for t in trials if t.model == bar["model"] and not t.passed]
        share = sum(t.signature == bar["signature"] for t in failed) / len(failed)
        assert float(bar["value"]) == pytest.approx(share), bar
    assert {b["signature"] for b in bars if b["model"] == MODELS[1]} == {
        "incomplete_resolution",
        "tool_usage",
        "wrong_state_update",
    }


def test_failure_analysis_panel_puts_each_run_beside_the_papers_figures(page: Any, trials: list[TrialRecord]) -> None:
    from statebox.report.seed_figures import SEED_FAILURE_ANALYSIS

    seed = SEED_FAILURE_ANALYSIS.shares
    assert "ThinkingBox paper, 12-model ablation" in page.text_content("#failure-analysis thead")  # not upper-cased
    assert SEED_FAILURE_ANALYSIS.label in page.inner_text("#failure-analysis p.note")
    for model in MODELS:
        failed = [t for t in trials if t.model == model and not t.passed]
        rows = {r["figure"]: r for r in _points(page, f'#failure-analysis tr.fa-row[data-model="{model}"]')}
        expected = {
            # every synthetic attempt ends with the customer, wrote a row and got no tool error last
            "terminated_cleanly": (len(failed), seed.terminated_cleanly),
            **{
                f"with_{kind}": (
                    sum(any(d.kind == kind for d in t.discrepancies) for t in failed),
                    getattr(seed, f"with_{kind}"),
                )
                for kind in ("wrong_value", "extra_effect", "missing_effect")
            },
            **{
                f"signature:{name}": (sum(t.signature == name for t in failed), seed.signatures.get(name))
                for name in {*seed.signatures, *(t.signature for t in failed if t.signature)}
            },
        }
        assert sorted(rows) == sorted(expected), model
        for figure, (count, paper) in expected.items():
            row = rows[figure]
            assert (int(row["count"]), float(row["share"])) == (count, pytest.approx(count / len(failed))), row
            assert float(row["paper"]) == pytest.approx(paper), row


def test_leaderboard_ranks_by_pass_at_1(page: Any) -> None:
    rows = page.eval_on_selector_all("tr.leader-row", "rows => rows.map(r => r.dataset.model)")
    assert rows == ["anthropic:claude-test", "openai:gpt-test"]


def _cells(row: Any) -> list[str]:
    return [c.inner_text() for c in row.query_selector_all("td")]


def _show(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


def test_drill_down_shows_the_transcript_and_state_diff_of_an_attempt(
    page: Any, trials: list[TrialRecord], synth: Any
) -> None:
    page.select_option("#drill-run", label=MODELS[0])
    _open(page, "r2")
    assert page.eval_on_selector_all("#attempt-buttons button.attempt", "bs => bs.map(b => b.dataset.repeat)") == [
        "0",
        "1",
        "2",
        "3",
    ]
    _open(page, "r2", 3)
    record = next(t for t in trials if t.model == MODELS[0] and t.task_id == "r2" and t.repeat == 3)
    assert page.get_attribute("#attempt-head", "data-trial-id") == record.trial_id
    assert page.inner_text("#attempt-signature") == "wrong_state_update"
    texts = page.eval_on_selector_all("#transcript .entry .text", "ns => ns.map(n => n.textContent)")
    assert texts == [e.content for e in record.transcript.entries if e.content]
    assert synth.HOSTILE_TEXT in texts[-1]  # shown as text, not run
    rows = [_cells(r) for r in page.query_selector_all("#discrepancies tr.discrepancy")]
    expected = [
        [d.kind, d.table, _show(d.key), d.field or "–", _show(d.expected), _show(d.actual)]
        for d in record.discrepancies
    ]
    assert rows == expected
    assert "status: pending → shipped" in page.inner_text("#effects")


def test_drill_down_of_a_passed_attempt_has_no_discrepancies(page: Any) -> None:
    page.select_option("#drill-run", label=MODELS[1])
    _open(page, "r1", 0)
    assert page.query_selector_all("#discrepancies tr") == []
    assert "None: the end state matches what was required." in page.inner_text("#attempt-view")


def test_task_table_filters_by_task_id_and_failed_attempts(page: Any) -> None:
    page.select_option("#drill-run", label=MODELS[0])
    listed = "rows => rows.map(r => r.dataset.taskId)"
    page.fill("#drill-search", "r")
    assert page.eval_on_selector_all("tr.task-row", listed) == ["r1", "r2", "r3"]
    page.check("#drill-failing")
    assert page.eval_on_selector_all("tr.task-row", listed) == ["r2", "r3"], "r1 passed all four attempts"
    assert page.inner_text("#drill-count") == "2 of 5 tasks"
    page.fill("#drill-search", "")
    page.uncheck("#drill-failing")
    assert page.eval_on_selector_all("tr.task-row", listed) == ["i1", "i2", "r1", "r2", "r3"]


def _chunk_requests(urls: list[str]) -> list[str]:
    return sorted({url.rsplit("/", 1)[-1] for url in urls if "/report.files/attempts-" in url})


def test_an_attempt_is_read_from_its_chunk_file_only_when_opened(opened: Opened, browser: Any, synth: Any) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto((opened.directory / "report.html").as_uri())
    page.wait_for_selector(LOADED)
    assert _chunk_requests(requests) == ["attempts-0001.js"], "the first screen reads the shown attempt's chunk only"
    page.select_option("#drill-run", label=MODELS[0])  # shows its first failing task, i1 #3: chunk 3
    _open(page, "r2", 3)  # attempt 36 of 40 (runs sorted: claude's 20 first, then gpt's i1 i2 r1 r2)
    assert _chunk_requests(requests) == ["attempts-0001.js", "attempts-0003.js", "attempts-0005.js"]
    texts = page.eval_on_selector_all("#transcript .entry .text", "ns => ns.map(n => n.textContent)")
    assert synth.HOSTILE_TEXT in texts[-1] and page.evaluate("window.__pwned") is None
    page.close()


def test_a_missing_chunk_file_is_named_on_the_page(opened: Opened, browser: Any, tmp_path: Path) -> None:
    alone = tmp_path / "report.html"
    alone.write_bytes((opened.directory / "report.html").read_bytes())  # the page sent without its folder
    page = browser.new_page()
    page.goto(alone.as_uri())
    page.wait_for_selector("#attempt-view[data-loaded]")
    assert page.get_attribute("#attempt-view", "data-loaded") == "error"
    message = page.inner_text("#attempt-error")
    assert "report.files/attempts-0001.js could not be read: keep the folder report.files beside this page" in message
    assert page.inner_text("#leaderboard-table"), "the summaries are drawn without any chunk"
    page.close()


def test_a_chunk_of_another_report_is_refused(opened: Opened, browser: Any, synth: Any, tmp_path: Path) -> None:
    other = load_runs([synth.write_run(tmp_path / "run", synth.standard_trials())])
    write_html(tmp_path / "report.html", other, build_report(other), limits=ChunkLimits(attempts=8))
    (tmp_path / "report.html").write_bytes((opened.directory / "report.html").read_bytes())  # a stale folder
    page = browser.new_page()
    page.goto((tmp_path / "report.html").as_uri())
    page.wait_for_selector("#attempt-view[data-loaded]")
    assert "report.files/attempts-0001.js belongs to another report" in page.inner_text("#attempt-error")
    page.close()


@pytest.fixture(scope="module")
def short_page(tmp_path_factory: pytest.TempPathFactory, synth: Any, browser: Any) -> Iterator[Any]:
    """A run at --repeat 5 with tasks (5, 5), (1, 1), (5, 2); the short task's four errors spent $0.25 each."""
    base = tmp_path_factory.mktemp("short")
    trials = [
        t.model_copy(update={"cost_usd": {"agent": 1.0, "user": 0.0, "judge": 0.0}})
        for task, n, c in (("full", 5, 5), ("short", 1, 1), ("half", 5, 2))
        for t in (synth.make_trial(task, "retail", r, r < c, signature="tool_usage") for r in range(n))
    ]
    spend = {"agent": 0.25, "user": 0.0, "judge": 0.0}
    errors = [synth.make_error("short", r).model_copy(update={"cost_usd": spend}) for r in range(1, 5)]
    loaded = load_runs([synth.write_run(base / "run", trials, errors, repeat=5)])
    write_html(base / "report.html", loaded, build_report(loaded))
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto((base / "report.html").as_uri())
    page.wait_for_selector("#leaderboard-table")
    page.wait_for_selector(LOADED)
    yield page
    page.close()


def _cell(page: Any, key: str) -> str:
    return " ".join(str(page.inner_text(f'#leaderboard-table td[data-key="{key}"]')).split())


def test_page_names_short_tasks_and_their_errors(short_page: Any) -> None:
    assert _cell(short_page, "tasks").endswith("1 short")
    warnings = " ".join(str(short_page.inner_text("#warnings")).split())
    assert "1 of 3 tasks are short" in warnings and "short (1/5, 4 errored)" in warnings, warnings


def test_page_says_beside_pass_at_n_how_many_tasks_it_is_over_one_set_for_every_k(short_page: Any) -> None:
    assert "over 2 of 3 tasks" in _cell(short_page, "pass_at_n")
    assert "over 2 of 3 tasks" in _cell(short_page, "pass_hat_n")
    points = {(p["metric"], p["k"]): p["tasks"] for p in _points(short_page, "circle.curve-point")}
    assert (points[("pass_hat_k", "1")], points[("pass_hat_k", "5")]) == ("2", "2")


def test_page_counts_one_dependable_task_of_three_and_errored_spend(short_page: Any) -> None:
    assert _cell(short_page, "all_k_tasks").startswith("1/3 (33.3%)")
    assert _cell(short_page, "per_dependable").startswith("$12.00")
    errored = _cell(short_page, "errored_usd")
    assert errored.startswith("$1.00") and errored.endswith("8.3% of spend"), errored


@pytest.fixture(scope="module")
def flags_page(tmp_path_factory: pytest.TempPathFactory, synth: Any, browser: Any) -> Iterator[Any]:
    """The standard run with r2 #1 flagged (an invented identifier) and r3 #2 violating a trace check."""
    from statebox.judge import Discrepancy
    from statebox.judge.fidelity import SimulatorFault

    fault = SimulatorFault(kind="invented_identifier", message_index=0, fact="order_number",
                           evidence="mentioned 'ORD-99999', shaped like order_number but not one it holds")  # fmt: skip
    violation = Discrepancy(kind="policy_violation", table="(trace)", key="confirm_refund", field="get_order",
                            expected="confirm first", actual="get_order before any confirmation",
                            check="confirm_refund", message_index=1)  # fmt: skip
    trials = []
    for t in synth.standard_trials():
        if (t.task_id, t.repeat) == ("r2", 1):
            t = t.model_copy(update={"simulator_faults": [fault]})
        if (t.task_id, t.repeat) == ("r3", 2):
            t = t.model_copy(update={"discrepancies": [*t.discrepancies, violation]})
        trials.append(t)
    base = tmp_path_factory.mktemp("flags")
    loaded = load_runs([synth.write_run(base / "run", trials)])
    write_html(base / "report.html", loaded, build_report(loaded))
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.goto((base / "report.html").as_uri())
    page.wait_for_selector("#flags")
    assert not problems, problems
    yield page
    page.close()


def test_leaderboard_counts_simulator_faults_apart(flags_page: Any) -> None:
    assert _cell(flags_page, "simulator_faults") == "1 (5.0% of attempts)"


def test_flags_card_counts_per_check_per_kind_and_per_task(flags_page: Any) -> None:
    rows = [_cells(r) for r in flags_page.query_selector_all("#flags tr.flag-row")]
    assert rows == [
        ["policy violation", "confirm_refund", "1", "11.1% of 9 failed"],
        ["simulator fault", "invented_identifier", "1", "5.0% of 20 finished"],
    ]
    tasks = [_cells(r) for r in flags_page.query_selector_all("#flags tr.flagged-task")]
    assert tasks == [["r2", "–", "invented_identifier ×1"], ["r3", "confirm_refund ×1", "–"]]


def test_drill_down_shows_a_fault_with_its_evidence_and_message(flags_page: Any) -> None:
    _open(flags_page, "r2")
    assert "2/3" in flags_page.inner_text('tr.task-row[data-task-id="r2"]'), "the flagged attempt is not counted"
    button = '#attempt-buttons button.attempt[data-repeat="1"]'
    assert "simulator fault" in flags_page.inner_text(button)
    _open(flags_page, "r2", 1)
    assert flags_page.inner_text("#attempt-fault").startswith("SIMULATOR FAULT")
    rows = [_cells(r) for r in flags_page.query_selector_all("#simulator-faults tr.fault")]
    assert rows == [["invented_identifier", "order_number", "entry 0",
                     "mentioned 'ORD-99999', shaped like order_number but not one it holds"]]  # fmt: skip
    assert "flagged" in (flags_page.get_attribute("#entry-0", "class") or "")


def test_drill_down_shows_a_violation_linking_to_the_offending_call(flags_page: Any) -> None:
    _open(flags_page, "r3", 2)
    rows = [_cells(r) for r in flags_page.query_selector_all("#violations tr.violation")]
    assert rows == [["confirm_refund", "get_order", "get_order before any confirmation", "entry 1", "confirm first"]]
    flags_page.click("#violations a.entry-link")
    entry = flags_page.query_selector("#entry-1")
    assert entry is not None and "get_order(" in entry.inner_text()
    assert "focus" in (entry.get_attribute("class") or ""), "following the link marks the entry it points at"


def test_leaderboard_gives_counts_beside_rates_and_denominators_beside_costs(short_page: Any) -> None:
    # passes: full 5 + short 1 + half 2 = 8 of 11 finished attempts; agent spend 11 x $1 + 4 errors x $0.25
    assert "8/11 passed" in _cell(short_page, "pass_at_1"), _cell(short_page, "pass_at_1")
    assert "7/10 passed" in _cell(short_page, "pass_hat_n"), _cell(short_page, "pass_hat_n")  # full and half
    assert "$12.00 / 8 passed" in _cell(short_page, "per_success"), _cell(short_page, "per_success")
    assert "$12.00 / 1 tasks" in _cell(short_page, "per_dependable"), _cell(short_page, "per_dependable")


def test_with_errors_the_page_shows_both_conventions_and_the_band(short_page: Any) -> None:
    for key in ("pass_at_1", "pass_hat_n"):
        cell = _cell(short_page, key)
        assert "errors as failures" in cell and "excluded" in cell and "band [" in cell, cell
    warnings = " ".join(str(short_page.inner_text("#warnings")).split())
    assert "shown both ways with the band of their intervals" in warnings, warnings


def test_every_per_domain_figure_has_its_interval(page: Any) -> None:
    cells = page.query_selector_all("#domain-table td[data-domain]")
    assert cells, "the two-domain run has a domain table"
    for cell in cells:
        for key in ("pass_at_1", "pass_at_n", "pass_hat_n", "per_success"):
            line = " ".join(str(cell.query_selector(f'[data-key="{key}"]').inner_text()).split())
            assert "[" in line and "]" in line, (key, line)
        assert "passed" in str(cell.inner_text()), cell.inner_text()
