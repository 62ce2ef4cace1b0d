"""The HTML report's page: nothing loaded from outside, and no data string can break out of its script element."""

import json
import re
from pathlib import Path
from typing import Any

from statebox.report.aggregate import build_report
from statebox.report.html import embed_json, write_html
from statebox.report.runs import load_runs


def _page(run: Path, out: Path) -> str:
    loaded = load_runs([run])
    write_html(out, loaded, build_report(loaded))
    return out.read_text(encoding="utf-8")


def _embedded(page: str, element_id: str) -> Any:
    match = re.search(rf'<script type="application/json" id="{element_id}">(.*?)</script>', page, re.S)
    assert match is not None, f"no {element_id} element"
    return json.loads(match.group(1))


def test_page_loads_nothing_from_outside(run_dir: Path, tmp_path: Path) -> None:
    page = _page(run_dir, tmp_path / "report.html")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "<link" not in page and "@import" not in page and "url(" not in page
    assert "default-src 'none'" in page  # the CSP forbids any fetch, should anything try
    assert "script-src 'unsafe-inline' 'self' file:;" in page  # scripts: its own and its chunk files only


def test_a_small_report_is_one_file_with_its_chunk_inlined(run_dir: Path, tmp_path: Path) -> None:
    page = _page(run_dir, tmp_path / "out" / "report.html")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["report.html"]
    data = _embedded(page, "statebox-data")
    assert data["chunks"] == {"count": 1, "folder": None}
    assert len(_embedded(page, "statebox-chunk-1")) == 20


def test_hostile_transcript_text_stays_inside_the_json(run_dir: Path, tmp_path: Path, synth: Any) -> None:
    page = _page(run_dir, tmp_path / "report.html")
    assert synth.HOSTILE_TEXT not in page
    assert page.count("</script>") == 3  # the data element, the inlined chunk and the code, nothing from the data
    replies = [e["content"] for a in _embedded(page, "statebox-chunk-1") for e in a["transcript"]]
    assert any(synth.HOSTILE_TEXT in r for r in replies)


def test_embed_json_escapes_markup_characters() -> None:
    text = embed_json({"x": "</script><!-- & \u2028"})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"x": "</script><!-- & \u2028"}


def test_page_carries_the_summary_and_an_index_row_per_attempt(run_dir: Path, tmp_path: Path) -> None:
    loaded = load_runs([run_dir])
    report = build_report(loaded)
    write_html(tmp_path / "report.html", loaded, report)
    data = _embedded((tmp_path / "report.html").read_text(), "statebox-data")
    (run,) = data["runs"]
    assert run["summary"] == report["runs"][0] and run["label"] == "openai:gpt-test"
    assert [t["task_id"] for t in run["tasks"]] == ["i1", "i2", "r1", "r2", "r3"]
    r2 = next(t for t in run["tasks"] if t["task_id"] == "r2")
    # [repeat, passed, signature index, chunk, slot, simulator fault kinds]; P F P F, all in chunk 1
    signature = run["signatures"].index("wrong_state_update")
    assert [row[:3] for row in r2["attempts"]] == [[0, 1, -1], [1, 0, signature], [2, 1, -1], [3, 0, signature]]
    assert {row[3] for t in run["tasks"] for row in t["attempts"]} == {1}
    assert sorted(row[4] for t in run["tasks"] for row in t["attempts"]) == list(range(20))
    assert "transcript" not in json.dumps(data) and "timings" not in json.dumps(data)


def test_chunk_slots_point_at_their_attempts(run_dir: Path, tmp_path: Path) -> None:
    page = _page(run_dir, tmp_path / "report.html")
    (run,) = _embedded(page, "statebox-data")["runs"]
    attempts = _embedded(page, "statebox-chunk-1")
    for task in run["tasks"]:
        for repeat, _, _, _, slot, _ in task["attempts"]:
            assert attempts[slot]["trial_id"] == f"builtin/{task['task_id']}/llm/openai:gpt-test/{repeat}"
