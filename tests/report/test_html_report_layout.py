"""The HTML report's layout in a real headless Chromium: nothing drawn over anything, at 1280-1920 px with 1-5 runs.

Overlap is measured on bounding boxes: the cards of the page and the failure-analysis panels never
intersect, and every table ends inside its card. Horizontal scrolling is the page's
`document.scrollingElement` (and the leaderboard's own scroller) being wider than it shows.
A `#task=ID` or `#attempt=TRIAL` address opens that task or attempt.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from statebox.report.aggregate import build_report
from statebox.report.html import write_html
from statebox.report.runs import load_runs
from statebox.runner.record import TrialRecord

WIDTHS = (1280, 1400, 1920)
RUN_COUNTS = (1, 2, 3, 4, 5)
LOADED = '#attempt-view[data-loaded="true"]'

# [{name, left, top, right, bottom}] of the nodes a selector matches, as the browser lays them out.
BOXES = """nodes => nodes.map((n, i) => { const b = n.getBoundingClientRect();
  return { name: (n.id || n.dataset.model || n.className) + '#' + i,
           left: b.left, top: b.top, right: b.right, bottom: b.bottom }; })"""

# Each table's right edge against the right edge of the card it is in (none needs its scroller).
TABLE_EDGES = """nodes => nodes.map(t => { const card = t.closest('section.card');
  return { table: t.id || t.className, card: card.id, right: t.getBoundingClientRect().right,
           limit: card.getBoundingClientRect().right }; })"""


def _model(i: int) -> str:
    return f"provider{i}:model-with-a-long-name-{i}"


def _trials(synth: Any, runs: int) -> list[TrialRecord]:
    """`runs` models on the standard run; model i passes task r3 on its first i attempts."""
    trials = []
    for i in range(runs):
        for t in synth.standard_trials(_model(i)):
            if t.task_id == "r3" and t.repeat < i:
                t = t.model_copy(update={"passed": True, "signature": None, "discrepancies": []})
            trials.append(t)
    return trials


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory, synth: Any) -> dict[int, Path]:
    """The report of 1, 2, ... 5 runs (one run per model)."""
    written = {}
    for runs in RUN_COUNTS:
        base = tmp_path_factory.mktemp(f"runs{runs}")
        loaded = load_runs([synth.write_run(base / "run", _trials(synth, runs))])
        assert len({t.model for t in loaded.trials}) == runs
        write_html(base / "report.html", loaded, build_report(loaded))
        written[runs] = base / "report.html"
    return written


def _open(browser: Any, report: Path, width: int, fragment: str = "") -> Any:
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(report.as_uri() + fragment)
    page.wait_for_selector("html[data-ready]")
    page.wait_for_selector("#attempt-view[data-loaded]")
    return page


@pytest.fixture
def opened(browser: Any, reports: dict[int, Path]) -> Iterator[Any]:
    """open(runs, width, fragment='') -> the page, closed after the test."""
    pages: list[Any] = []

    def open_(runs: int, width: int, fragment: str = "") -> Any:
        pages.append(_open(browser, reports[runs], width, fragment))
        return pages[-1]

    yield open_
    for page in pages:
        page.close()


def _overlaps(boxes: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The pairs of boxes that share more than a pixel of area."""
    pairs = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            w = min(a["right"], b["right"]) - max(a["left"], b["left"])
            h = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
            if w > 1 and h > 1:
                pairs.append((a["name"], b["name"]))
    return pairs


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("runs", RUN_COUNTS)
def test_nothing_overlaps_and_every_table_stays_in_its_card(opened: Any, runs: int, width: int) -> None:
    page = opened(runs, width)
    cards = page.eval_on_selector_all("section.card", BOXES)
    assert _overlaps(cards) == [], f"cards drawn over each other at {width}px with {runs} runs"
    panels = page.eval_on_selector_all("#failure-analysis .fa-panel", BOXES)
    assert len(panels) == runs
    assert _overlaps(panels) == [], f"failure-analysis panels drawn over each other at {width}px with {runs} runs"
    tables = page.eval_on_selector_all("#failure-analysis .fa-table", BOXES)
    assert _overlaps(tables) == [], f"failure-analysis tables drawn over each other at {width}px with {runs} runs"
    spilled = [e for e in page.eval_on_selector_all("section.card table", TABLE_EDGES) if e["right"] > e["limit"] + 0.5]
    assert spilled == [], f"tables spilling out of their card at {width}px with {runs} runs"


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("runs", RUN_COUNTS)
def test_the_page_never_scrolls_sideways(opened: Any, runs: int, width: int) -> None:
    page = opened(runs, width)
    scroll = page.evaluate("(e => [e.scrollWidth, e.clientWidth])(document.scrollingElement)")
    assert scroll[0] <= scroll[1], f"the page scrolls sideways at {width}px with {runs} runs: {scroll}"


@pytest.mark.parametrize("width", (1400, 1920))
@pytest.mark.parametrize("runs", RUN_COUNTS)
def test_the_leaderboard_fits_without_scrolling_from_1400_px(opened: Any, runs: int, width: int) -> None:
    page = opened(runs, width)
    scroller = "document.querySelector('#leaderboard [data-scroll]')"
    scroll = page.evaluate(f"(e => [e.scrollWidth, e.clientWidth])({scroller})")
    assert scroll[0] <= scroll[1], f"the leaderboard scrolls sideways at {width}px with {runs} runs: {scroll}"
    assert page.eval_on_selector_all("tr.leader-row", "rows => rows.length") == runs


@pytest.mark.parametrize("width", WIDTHS)
def test_a_missing_rows_fields_are_one_a_line_in_a_readable_column(opened: Any, width: int) -> None:
    page = opened(2, width, "#task=r3")  # r3's failures miss a whole refunds row
    row = page.query_selector('#discrepancies tr.discrepancy[data-kind="missing_effect"]')
    assert row is not None, page.inner_text("#attempt-view")
    fields = row.eval_on_selector_all("td.row-value .row-field", "ns => ns.map(n => n.textContent)")
    assert fields == ["order_id: O-3", "amount: 12.5"]
    cell = row.query_selector("td.row-value").bounding_box()
    line = row.query_selector("td.row-value .row-field").bounding_box()
    assert cell["width"] >= 150, f"the expected row is squeezed into {cell['width']:.0f}px at {width}px"
    assert line["height"] < 24, f"a field of the expected row wraps over {line['height']:.0f}px at {width}px"


def test_a_task_fragment_opens_that_task(opened: Any) -> None:
    page = opened(3, 1400, "#task=i1")
    page.wait_for_selector(LOADED)
    assert page.eval_on_selector_all("tr.task-row.selected", "rows => rows.map(r => r.dataset.taskId)") == ["i1"]
    assert page.inner_text("#attempt-buttons strong") == "i1"


def test_an_attempt_fragment_opens_that_attempt_in_its_run(opened: Any, synth: Any) -> None:
    trial = f"{synth.SUITE}/i2/{synth.AGENT}/{_model(2)}/2"
    page = opened(3, 1400, f"#attempt={trial}")
    page.wait_for_selector(LOADED)
    assert page.get_attribute("#attempt-head", "data-trial-id") == trial
    assert page.eval_on_selector("#drill-run", "s => s.options[s.selectedIndex].text") == _model(2)
    selected = page.eval_on_selector_all("#attempt-buttons button.selected", "bs => bs.map(b => b.dataset.repeat)")
    assert selected == ["2"]
    top = page.evaluate("document.getElementById('attempt-view').getBoundingClientRect().top")
    assert 0 <= top < 900, f"the attempt is not scrolled into view: its top is at {top}px"


def test_clicking_an_attempt_puts_its_link_in_the_address_and_the_link_opens_it(opened: Any, synth: Any) -> None:
    page = opened(2, 1400)
    page.click('tr.task-row[data-task-id="r2"]')
    assert page.evaluate("location.hash") == "#task=r2"
    page.click('#attempt-buttons button.attempt[data-repeat="3"]')
    page.wait_for_selector(LOADED)
    trial = page.get_attribute("#attempt-head", "data-trial-id")
    assert page.evaluate("decodeURIComponent(location.hash)") == f"#attempt={trial}"
    page.evaluate("location.hash = '#task=i2'")  # a link followed inside the open page
    page.wait_for_function("document.querySelector('#attempt-buttons strong').textContent === 'i2'")


def test_a_fragment_naming_nothing_says_so(opened: Any) -> None:
    page = opened(2, 1400, "#task=no-such-task")
    assert page.inner_text("#fragment-error") == "This report has no task no-such-task."
    assert page.eval_on_selector_all("tr.task-row", "rows => rows.length") == 5


def test_an_attempt_with_an_unusual_trial_id_is_linked_by_it(browser: Any, synth: Any, tmp_path: Path) -> None:
    """The page carries a trial id only when it is not suite/task/agent/model/repeat; such an id still links."""
    trials = [
        t.model_copy(update={"trial_id": "imported-7"}) if (t.task_id, t.repeat) == ("i1", 1) else t
        for t in synth.standard_trials(_model(0))
    ]
    loaded = load_runs([synth.write_run(tmp_path / "run", trials)])
    write_html(tmp_path / "report.html", loaded, build_report(loaded))
    page = _open(browser, tmp_path / "report.html", 1400, "#attempt=imported-7")
    try:
        page.wait_for_selector(LOADED)
        assert page.get_attribute("#attempt-head", "data-trial-id") == "imported-7"
        rows = page.evaluate("JSON.parse(document.getElementById('statebox-data').textContent).runs[0].tasks")
        lengths = {(t["task_id"], row[0]): len(row) for t in rows for row in t["attempts"]}
        assert {key for key, n in lengths.items() if n == 7} == {("i1", 1)}, lengths
    finally:
        page.close()
