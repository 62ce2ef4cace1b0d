"""A statebox suite as an Inspect AI task, played by the fake model through Inspect's OpenAI-compatible provider."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import get_model

from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer, Mode
from statebox.integrations.inspect_task import statebox_task
from statebox.metrics.estimators import pass_hat_k
from statebox.suites import Suite, load_suite

TASKS = [
    "cancel_desk_wrong_order_number",
    "account_taken_over_cancel_request_security_handoff",
    "defective_blender_*",
    "washer_*",
]


@pytest.fixture(scope="module")
def retail() -> Suite:
    return load_suite("retail")


def _evaluate(suite: Suite, mode: Mode, log_dir: Path, epochs: int = 1, error_rate: float = 0.3) -> EvalLog:
    with FakeModelServer(FakeModelApp(suite, FakeModelConfig(mode=mode, error_rate=error_rate))) as server:
        model = get_model("openai-api/fake/fake-agent", base_url=server.base_url, api_key="unused")
        (log,) = inspect_eval(
            statebox_task(suite, TASKS, epochs=epochs), model=model, display="none", log_dir=str(log_dir)
        )
    assert log.status == "success", log.error
    return log


def _scores(log: EvalLog) -> Iterator[tuple[str, int, str, dict]]:
    for sample in log.samples or []:
        assert sample.scores is not None
        score = sample.scores["statebox_judge"]
        yield str(sample.id), sample.epoch, str(score.value), dict(score.metadata or {})


def _metrics(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    (scored,) = log.results.scores
    return {name: m.value for name, m in scored.metrics.items()}


def test_the_reference_play_scores_pass_on_every_sample(retail: Suite, tmp_path: Path) -> None:
    log = _evaluate(retail, "reference", tmp_path)
    scores = list(_scores(log))
    assert len(scores) == 4
    failed = [(sid, meta["signature"], meta["discrepancies"]) for sid, _, value, meta in scores if value != "C"]
    assert failed == []
    assert all(meta["signature"] is None and meta["effects"] for *_, meta in scores)
    assert _metrics(log) == {"pass^1": 1.0}


@pytest.fixture(scope="module")
def wrong_value(retail: Suite, tmp_path_factory: pytest.TempPathFactory) -> EvalLog:
    """The wrong-value play, which two tests read (one eval: the fake model plays it the same every time)."""
    return _evaluate(retail, "wrong-value", tmp_path_factory.mktemp("wrong-value"))


def test_a_wrong_value_scores_fail_with_the_typed_discrepancy_in_the_metadata(wrong_value: EvalLog) -> None:
    log = wrong_value
    for sample_id, _, value, meta in _scores(log):
        assert value == "I", f"{sample_id} passed with a wrong value"
        assert meta["signature"] == "wrong_state_update", (sample_id, meta["signature"])
        wrong = [d for d in meta["discrepancies"] if d["kind"] == "wrong_value"]
        assert wrong, f"{sample_id}: no wrong_value discrepancy in {meta['discrepancies']}"
        assert all(d["expected"] != d["actual"] and d["table"] and d["field"] for d in wrong)
    assert _metrics(log)["pass^1"] == 0.0


def test_epochs_are_repeats_and_give_statebox_pass_hat_k(retail: Suite, tmp_path: Path) -> None:
    log = _evaluate(retail, "flaky", tmp_path, epochs=3, error_rate=0.5)
    tally: dict[str, list[bool]] = {}
    for sample_id, epoch, value, meta in _scores(log):
        tally.setdefault(sample_id, []).append(value == "C")
        assert meta["trial_id"].endswith(f"/{epoch - 1}"), "epoch e is statebox repeat e-1"
    assert {len(v) for v in tally.values()} == {3}
    assert any(0 < sum(v) < 3 for v in tally.values()), f"the flaky play should differ between epochs: {tally}"
    expected = {
        f"pass^{k}": sum(pass_hat_k(3, sum(v), k) or 0.0 for v in tally.values()) / len(tally) for k in (1, 2, 3)
    }
    assert _metrics(log) == pytest.approx(expected)


def test_the_scores_are_the_verdicts_statebox_run_gives_the_same_play(
    retail: Suite, wrong_value: EvalLog, tmp_path: Path
) -> None:
    log = wrong_value
    inspect_verdicts = {
        sid: (value == "C", meta["signature"], meta["discrepancies"]) for sid, _, value, meta in _scores(log)
    }
    out = tmp_path / "run"
    with FakeModelServer(FakeModelApp(retail, FakeModelConfig(mode="wrong-value"))) as server:
        command = [str(Path(sys.executable).with_name("statebox")), "run", "retail", "--agent", "llm", "--model",
                   "openai:fake-agent", "--base-url", server.base_url, "--user", "scripted", "--out", str(out),
                   "--no-progress", *[a for t in TASKS for a in ("--tasks", t)]]  # fmt: skip
        done = subprocess.run(command, env={**os.environ, "OPENAI_API_KEY": "unused"}, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    trials = [json.loads(line) for line in (out / "trials.jsonl").read_text().splitlines()]
    run_verdicts = {t["task_id"]: (t["passed"], t["signature"], t["discrepancies"]) for t in trials}
    assert inspect_verdicts == run_verdicts
