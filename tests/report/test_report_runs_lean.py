"""The report reads a run lean: a summary per attempt, by the run store's line rules, and the full record
read back from its place only where a transcript is shown (HTML chunks) or duplicates are compared."""

import json
from pathlib import Path
from typing import Any

import pytest

from statebox.report.aggregate import build_report
from statebox.report.html import write_html
from statebox.report.html_chunks import AttemptView, ChunkLimits
from statebox.report.runs import FullRecords, ReportInputError, load_runs
from statebox.runner.record import SCHEMA_VERSION
from statebox.runner.store import TORN_MARK


def test_a_summary_carries_what_the_metrics_need_of_its_record(run_dir: Path, trials: list[Any]) -> None:
    by_id = {t.trial_id: t for t in trials}
    for s in load_runs([run_dir]).trials:
        t = by_id[s.trial_id]
        got = (s.task_id, s.domain, s.repeat, s.passed, s.signature, s.cost_usd, s.kinds, s.entries)
        want = (t.task_id, t.domain, t.repeat, t.passed, t.signature, t.cost_usd,
                frozenset(d.kind for d in t.discrepancies), len(t.transcript.entries))  # fmt: skip
        assert got == want, s.trial_id


def test_the_full_record_is_read_back_from_its_place(run_dir: Path, trials: list[Any]) -> None:
    by_id = {t.trial_id: t for t in trials}
    with FullRecords() as full:
        for s in reversed(load_runs([run_dir]).trials):  # any order: each read seeks to its own line
            assert full.read(s) == by_id[s.trial_id], f"{s.at.path}:{s.at.line}"


def test_the_attempt_view_is_the_record_less_what_is_not_shown(run_dir: Path, trials: list[Any]) -> None:
    summary = load_runs([run_dir]).trials[0]
    record = next(t for t in trials if t.trial_id == summary.trial_id)
    with FullRecords() as full:
        view = json.loads(full.read_as(summary, AttemptView).model_dump_json())
    assert view["transcript"] == [
        {"role": e.role, "content": e.content, "tool_name": e.tool_name, "is_error": e.is_error,
         "error_kind": e.error_kind,
         "tool_calls": [{"name": c.name, "arguments": c.arguments, "raw_arguments": c.raw_arguments}
                        for c in e.tool_calls]}
        for e in record.transcript.entries
    ]  # fmt: skip
    assert view["discrepancies"] == [d.model_dump(mode="json") for d in record.discrepancies]
    assert view["effects"] == record.effects
    assert not {"timings", "usage", "schema_version", "state_hash"} & view.keys()


def test_a_line_of_an_unknown_schema_version_is_refused_naming_its_line(tmp_path: Path, synth: Any) -> None:
    future = json.loads(synth.standard_trials()[0].model_dump_json()) | {"schema_version": SCHEMA_VERSION + 1}
    path = synth.write_run(tmp_path / "run", synth.standard_trials()[1:], extra_lines=[json.dumps(future)])
    with pytest.raises(ReportInputError, match=rf"trials.jsonl:20: schema_version {SCHEMA_VERSION + 1}, but"):
        load_runs([path])


def test_a_line_marked_torn_by_a_repair_is_counted_and_skipped(tmp_path: Path, synth: Any) -> None:
    torn = '{"trial_id": "half' + TORN_MARK
    loaded = load_runs([synth.write_run(tmp_path / "run", synth.standard_trials(), extra_lines=[torn])])
    assert len(loaded.trials) == 20
    want = f"{tmp_path / 'run' / 'trials.jsonl'}: skipped 1 torn line (line 21: a writer killed mid-line)"
    assert loaded.warnings == [want]


def test_a_line_separator_inside_a_transcript_does_not_split_the_record(tmp_path: Path, synth: Any) -> None:
    trials = synth.standard_trials()
    entry = trials[0].transcript.entries[-1].model_copy(update={"content": "one\u2028two\u2029three\rfour"})
    trials[0] = trials[0].model_copy(
        update={"transcript": trials[0].transcript.model_copy(update={"entries": [entry]})}
    )
    loaded = load_runs([synth.write_run(tmp_path / "run", trials)])
    assert (len(loaded.trials), loaded.warnings) == (20, [])
    with FullRecords() as full:
        shown = full.read(next(t for t in loaded.trials if t.trial_id == trials[0].trial_id))
    assert shown.transcript.entries[-1].content == "one\u2028two\u2029three\rfour"


def test_a_line_changed_after_it_was_read_is_named_with_its_line(run_dir: Path) -> None:
    loaded = load_runs([run_dir])
    trials_file = run_dir / "trials.jsonl"
    lines = trials_file.read_text().splitlines(keepends=True)
    lines[2] = "x" * (len(lines[2]) - 1) + "\n"  # same length: the offsets still point at it
    trials_file.write_text("".join(lines))
    third = next(t for t in loaded.trials if t.at.line == 3)
    with FullRecords() as full, pytest.raises(ReportInputError, match=r"trials\.jsonl:3: not a JSON record"):
        full.read(third)


def test_html_chunks_hold_every_attempt_in_index_order(run_dir: Path, tmp_path: Path) -> None:
    loaded = load_runs([run_dir])
    written = write_html(tmp_path / "r.html", loaded, build_report(loaded), limits=ChunkLimits(attempts=3))
    shown: list[str] = []
    for chunk in written.chunks:
        text = chunk.read_text()
        shown += [a["trial_id"] for a in json.loads(text[text.index("[") : text.rindex("]") + 1])]
    assert shown == [t.trial_id for t in loaded.trials]
