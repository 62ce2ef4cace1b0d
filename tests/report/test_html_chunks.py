"""The HTML report at scale: the page stays small as attempts grow; transcripts go to chunk files beside it."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from statebox.report.aggregate import build_report
from statebox.report.html import WrittenReport, chunk_folder, write_html
from statebox.report.html_chunks import ChunkLimits
from statebox.report.runs import LoadedRuns, load_runs

TASKS, REPEATS = 100, 20  # 2,000 attempts: eight chunks of 250
CHUNK_CALL = re.compile(r'^stateboxChunk\("([0-9a-f]{16})",(\d+),(\[.*\])\);\n$', re.S)


@dataclass
class Written:
    loaded: LoadedRuns
    report: dict[str, Any]
    written: WrittenReport
    page: str


def _trials(synth: Any, tasks: int) -> list[Any]:
    trials = []
    for i in range(tasks):
        for r in range(REPEATS):
            passed = (i + r) % 3 != 0
            t = synth.make_trial(f"t{i:03d}", "retail", r, passed, signature="tool_usage")
            if i == 7 and r == 3:  # a transcript string written to close the script element and run code
                entry = t.transcript.entries[-1].model_copy(update={"content": synth.HOSTILE_TEXT})
                t = t.model_copy(update={"transcript": t.transcript.model_copy(update={"entries": [entry]})})
            trials.append(t)
    return trials


def _write(synth: Any, base: Path, tasks: int) -> Written:
    loaded = load_runs([synth.write_run(base / "run", _trials(synth, tasks), repeat=REPEATS)])
    report = build_report(loaded)
    written = write_html(base / "report.html", loaded, report)
    return Written(loaded, report, written, written.page.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory, synth: Any) -> Written:
    return _write(synth, tmp_path_factory.mktemp("large"), TASKS)


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory, synth: Any) -> Written:
    return _write(synth, tmp_path_factory.mktemp("small"), 1)


def _data(page: str) -> Any:
    match = re.search(r'<script type="application/json" id="statebox-data">(.*?)</script>', page, re.S)
    assert match is not None
    return json.loads(match.group(1))


def _chunk(path: Path) -> tuple[str, int, list[Any]]:
    match = CHUNK_CALL.match(path.read_text(encoding="utf-8"))
    assert match is not None, f"{path.name} is not one stateboxChunk(...) call: {path.read_text()[:120]!r}"
    return match.group(1), int(match.group(2)), json.loads(match.group(3))


def test_two_thousand_attempts_make_eight_chunk_files_beside_the_page(large: Written) -> None:
    folder = large.written.page.with_name("report.files")
    assert [p.name for p in large.written.chunks] == [f"attempts-{n:04d}.js" for n in range(1, 9)]
    assert sorted(p.name for p in folder.iterdir()) == [p.name for p in large.written.chunks]
    assert _data(large.page)["chunks"] == {"count": 8, "folder": "report.files"}
    sizes = [len(_chunk(p)[2]) for p in large.written.chunks]
    assert sizes == [250] * 8


def test_the_page_grows_by_a_few_bytes_per_attempt(large: Written, small: Written) -> None:
    grown = len(large.page.encode()) - len(small.page.encode())
    per_attempt = grown / (TASKS * REPEATS - REPEATS)
    assert per_attempt < 40, f"the page grows by {per_attempt:.1f} bytes per attempt"
    chunk_bytes = sum(p.stat().st_size for p in large.written.chunks)
    assert len(large.page.encode()) < chunk_bytes / 4, (len(large.page), chunk_bytes)


def test_every_index_row_points_at_its_attempt_in_its_chunk(large: Written) -> None:
    report_id = _data(large.page)["report_id"]
    chunks = {}
    for path in large.written.chunks:
        owner, number, attempts = _chunk(path)
        assert owner == report_id, f"{path.name} is tied to report {owner}, the page is {report_id}"
        chunks[number] = attempts
    (run,) = _data(large.page)["runs"]
    for task in run["tasks"]:
        for repeat, passed, _, number, slot, _ in task["attempts"]:
            attempt = chunks[number][slot]
            assert attempt["trial_id"] == f"builtin/{task['task_id']}/llm/openai:gpt-test/{repeat}"
            assert attempt["passed"] == bool(passed)


def test_a_hostile_transcript_string_in_a_chunk_is_escaped(large: Written, synth: Any) -> None:
    texts = [p.read_text(encoding="utf-8") for p in large.written.chunks]
    assert not any(c in text for text in texts for c in "<>&"), "a chunk holds a raw markup character"
    replies = [e["content"] for p in large.written.chunks for a in _chunk(p)[2] for e in a["transcript"]]
    assert replies.count(synth.HOSTILE_TEXT) == 1


def test_a_smaller_report_over_the_same_path_removes_the_stale_chunks(
    tmp_path: Path, synth: Any, large: Written
) -> None:
    path = tmp_path / "report.html"
    write_html(path, large.loaded, large.report, limits=ChunkLimits(attempts=500))
    assert len(list(chunk_folder(path).iterdir())) == 4
    (chunk_folder(path) / "notes.txt").write_text("the user's own file")
    loaded = load_runs([synth.write_run(tmp_path / "run", synth.standard_trials())])
    assert write_html(path, loaded, build_report(loaded)).chunks == []
    assert [p.name for p in chunk_folder(path).iterdir()] == ["notes.txt"], "only chunk files are removed"


def test_chunks_also_close_at_their_byte_limit(tmp_path: Path, large: Written) -> None:
    written = write_html(tmp_path / "r.html", large.loaded, large.report, limits=ChunkLimits(bytes=200_000))
    sizes = [p.stat().st_size for p in written.chunks]
    assert len(sizes) > 8 and max(sizes) < 200_000 + 2_000, sizes


def test_chunk_folder_is_the_page_name_without_its_suffix() -> None:
    assert chunk_folder(Path("out/report.html")) == Path("out/report.files")
    assert chunk_folder(Path("out/report")) == Path("out/report.files")
    assert chunk_folder(Path("out/x.files")) == Path("out/x.files.files")


def test_report_html_names_the_folder_to_send_with_the_page(
    app: typer.Typer, runner: CliRunner, large: Written, tmp_path: Path
) -> None:
    out = tmp_path / "sent" / "report.html"
    result = runner.invoke(app, ["report", str(large.written.page.with_name("run")), "--html", str(out), "--json"])
    assert result.exit_code == 0, result.output
    message = " ".join(result.stderr.split())
    assert (
        f"HTML report written to {out}, its attempts in 8 chunks in {out.with_name('report.files')}/ (send both)"
        in message
    )
