"""The HTML report is one self-contained file whose embedded data cannot break out of its script element."""

import json
import re
from pathlib import Path
from typing import Any

from statebox.report.aggregate import build_report
from statebox.report.html import embed_json, page_data, render_html
from statebox.report.runs import load_runs


def _page(path: Path) -> str:
    loaded = load_runs([path])
    return render_html(loaded, build_report(loaded))


def _embedded(page: str) -> Any:
    match = re.search(r'<script type="application/json" id="statebox-data">(.*?)</script>', page, re.S)
    assert match is not None
    return json.loads(match.group(1))


def test_page_loads_nothing_from_outside(run_dir: Path) -> None:
    page = _page(run_dir)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "<link" not in page and "@import" not in page and "url(" not in page
    assert "default-src 'none'" in page  # the CSP forbids any fetch, should anything try


def test_hostile_transcript_text_stays_inside_the_json(run_dir: Path, synth: Any) -> None:
    page = _page(run_dir)
    assert synth.HOSTILE_TEXT not in page
    assert page.count("</script>") == 2  # the data element and the code element, nothing from the data
    data = _embedded(page)
    replies = [e["content"] for t in data["runs"][0]["tasks"] for a in t["attempts"] for e in a["transcript"]]
    assert any(synth.HOSTILE_TEXT in r for r in replies)


def test_embed_json_escapes_markup_characters() -> None:
    text = embed_json({"x": "</script><!-- & \u2028"})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"x": "</script><!-- & \u2028"}


def test_page_data_carries_summary_and_every_attempt(run_dir: Path) -> None:
    loaded = load_runs([run_dir])
    report = build_report(loaded)
    data = page_data(loaded, report)
    (run,) = data["runs"]
    assert run["summary"] == report["runs"][0] and run["label"] == "openai:gpt-test"
    assert [t["task_id"] for t in run["tasks"]] == ["i1", "i2", "r1", "r2", "r3"]
    assert sum(len(t["attempts"]) for t in run["tasks"]) == 20
    assert "timings" not in json.dumps(data)
