"""A real `statebox run` killed with SIGKILL at random moments and resumed loses nothing and duplicates nothing.

The LLM agent plays against `statebox fake-model` in flaky mode with latency, so attempts are in flight
when the kill lands; flaky mistakes are seeded per attempt, so the resumed campaign must report exactly
what an uninterrupted run of the same campaign reports.
"""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from statebox.runner.record import TrialRecord, trial_id

STATEBOX = str(Path(sys.executable).with_name("statebox"))
TASKS = [
    "action_camera_restocking_fee_misread_order_number",
    "air_purifier_return_refund_wrong_rma_number",
    "armchair_not_as_described_inspection_hold_platinum",
    "armchair_snapped_leg_photos_pending_platinum",
    "camping_box_missing_items_replace_and_refund",
    "cancel_desk_wrong_order_number",
    "cracked_tablet_protect_plus_claim_hold",
    "defective_blender_replacement_gold",
    "dishwasher_install_move_exactly_24h_notice_wrong_order_number",
    "duplicate_bookshelf_order_cancel_old_address",
]
REPEAT, KILLS, MODEL = 3, 5, "openai:fake"
TIMING_WORDS = ("timing", "time", "duration", "latency", "elapsed")


def _env() -> dict[str, str]:
    """The caller's environment without terminal sizes or API keys (runs must not depend on them)."""
    drop = {"COLUMNS", "LINES", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"}
    return {k: v for k, v in os.environ.items() if k not in drop}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for(condition: Callable[[], bool], timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s:g} s waiting for {what}")
        time.sleep(0.01)


def _get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=2) as resp:
        return json.loads(resp.read())


def _answers(url: str) -> bool:
    try:
        _get_json(url)
    except OSError:
        return False
    return True


@contextmanager
def fake_model(tmp_path: Path, *args: str) -> Iterator[str]:
    """`statebox fake-model retail ARGS` as a subprocess; yields its base URL; always killed."""
    port = _free_port()
    log = (tmp_path / f"fake-model-{port}.log").open("w")
    proc = subprocess.Popen(
        [STATEBOX, "fake-model", "retail", *args, "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=_env(),
    )
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_for(lambda: proc.poll() is not None or _answers(f"{base}/v1/models"), 30, "the fake model to listen")
        assert proc.poll() is None, f"the fake model exited: {Path(log.name).read_text()}"
        yield base
    finally:
        proc.kill()
        proc.wait()
        log.close()


def _run_command(base: str, out: Path) -> list[str]:
    selection = [arg for task in TASKS for arg in ("--tasks", task)]
    return [
        STATEBOX, "run", "retail", "--agent", "llm", "--model", MODEL, "--base-url", f"{base}/v1",
        "--user", "scripted", "--repeat", str(REPEAT), "--concurrency", "4", *selection,
        "--out", str(out), "--no-progress",
    ]  # fmt: skip


def _complete_lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def _report(*dirs: Path) -> Any:
    done = subprocess.run(
        [STATEBOX, "report", *map(str, dirs), "--json"], capture_output=True, text=True, env=_env(), timeout=60
    )
    assert done.returncode == 0, done.stderr
    return _without_timings(json.loads(done.stdout))


def _without_timings(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: _without_timings(v)
            for k, v in value.items()
            if not (k.endswith("_s") or any(word in k.lower() for word in TIMING_WORDS))
        }
    if isinstance(value, list):
        return [_without_timings(v) for v in value]
    return value


def _parsed_lines(path: Path) -> tuple[list[TrialRecord], list[str]]:
    """Every line of trials.jsonl: the records that parse, and the lines that do not."""
    records, bad = [], []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if not line.strip():
            continue
        try:
            records.append(TrialRecord.model_validate_json(line))
        except ValueError:
            bad.append(line[:80])
    return records, bad


def _expected_ids() -> set[str]:
    return {trial_id("retail", task, "llm", MODEL, r) for task in TASKS for r in range(REPEAT)}


def _outcomes(path: Path) -> dict[str, tuple[bool, str | None, str]]:
    records, _ = _parsed_lines(path)
    return {t.trial_id: (t.passed, t.signature, t.state_hash) for t in records}


def _kill_and_resume(command: list[str], trials: Path, tmp_path: Path) -> list[int]:
    """Run `command`, SIGKILL it KILLS times once it has finished more attempts, resume each time.

    Returns the number of complete lines of trials.jsonl at each kill.
    """
    rng = random.Random(20240605)
    at_kill: list[int] = []
    stderr = (tmp_path / "killed-run.stderr").open("w")
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr, env=_env())
    try:
        for k in range(KILLS):
            before = _complete_lines(trials)
            _wait_for(
                lambda b=before, p=proc: _complete_lines(trials) > b or p.poll() is not None,
                90,
                f"attempts to finish before kill {k + 1}",
            )
            time.sleep(rng.uniform(0.05, 0.35))  # a seeded moment while the other workers are mid-attempt
            assert proc.poll() is None, (
                f"the campaign ended by itself (exit {proc.returncode}) before kill {k + 1}: "
                f"{(tmp_path / 'killed-run.stderr').read_text()[-2000:]}"
            )
            proc.kill()
            proc.wait()
            at_kill.append(_complete_lines(trials))
            proc = subprocess.Popen([*command, "--resume"], stdout=subprocess.DEVNULL, stderr=stderr, env=_env())
        assert proc.wait(timeout=180) == 0, (tmp_path / "killed-run.stderr").read_text()[-2000:]
    finally:
        proc.kill()
        proc.wait()
        stderr.close()
    return at_kill


@pytest.mark.slow
def test_sigkill_at_five_moments_then_resume_equals_an_uninterrupted_run(tmp_path: Path) -> None:
    killed, clean = tmp_path / "killed", tmp_path / "clean"
    flaky = ("--mode", "flaky", "--error-rate", "0.3", "--latency-ms", "50")
    with fake_model(tmp_path, *flaky) as killed_base, fake_model(tmp_path, *flaky) as clean_base:
        # The uninterrupted run goes on meanwhile, against its own server so request counts can be compared.
        clean_log = (tmp_path / "clean-run.stderr").open("w")
        clean_proc = subprocess.Popen(
            _run_command(clean_base, clean), stdout=subprocess.DEVNULL, stderr=clean_log, env=_env()
        )
        try:
            at_kill = _kill_and_resume(_run_command(killed_base, killed), killed / "trials.jsonl", tmp_path)
            assert clean_proc.wait(timeout=180) == 0, (tmp_path / "clean-run.stderr").read_text()[-2000:]
        finally:
            clean_proc.kill()
            clean_proc.wait()
            clean_log.close()
        requests_killed = _get_json(f"{killed_base}/stats")["requests"]
        requests_clean = _get_json(f"{clean_base}/stats")["requests"]

    assert len(at_kill) == KILLS
    assert all(b > a for a, b in zip([0, *at_kill], at_kill, strict=False)), f"lines at each kill: {at_kill}"
    # Attempts cut off by a kill had already talked to the model: their requests were made again.
    assert requests_killed > requests_clean, (requests_killed, requests_clean)

    records, bad = _parsed_lines(killed / "trials.jsonl")
    ids = Counter(t.trial_id for t in records)
    duplicates = sorted(i for i, n in ids.items() if n > 1)
    assert not duplicates, f"trials recorded more than once: {duplicates}"
    assert set(ids) == _expected_ids(), {
        "missing": sorted(_expected_ids() - set(ids)),
        "unexpected": sorted(set(ids) - _expected_ids()),
    }
    assert not (killed / "errors.jsonl").read_text().strip(), "no infrastructure error may be left"

    report = _report(killed)
    assert report["runs"][0]["attempts"] == len(_expected_ids()), f"corrupt lines must not count: {bad}"
    assert _outcomes(killed / "trials.jsonl") == _outcomes(clean / "trials.jsonl")
    assert report == _report(clean)
