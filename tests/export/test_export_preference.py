"""`statebox export --format preference`: DPO pairs of a passing and a failing attempt of one task, chosen
deterministically, with the tasks that give no pair counted."""

from __future__ import annotations

import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

from export.conftest import STATEBOX, Exports
from statebox.openenv.preference import preference_pairs
from statebox.runner.store import RunDir

SYSTEM = {"role": "system", "content": "policy"}
OPENING = {"role": "user", "content": "I want a refund."}


def _chat(task: str, repeat: int, passed: bool, *, opening: dict[str, Any] = OPENING) -> dict[str, Any]:
    reply = {"role": "assistant", "content": f"{task} attempt {repeat}"}
    return {"suite": "s", "task_id": task, "domain": "d", "model": "m", "repeat": repeat,
            "trial_id": f"s/{task}/llm/m/{repeat}", "reward": 1.0 if passed else 0.0, "tools": [],
            "verdict": {"passed": passed, "signature": None if passed else "wrong_value"},
            "messages": [SYSTEM, opening, reply]}


def test_passes_and_fails_are_zipped_in_repeat_order_each_attempt_used_once() -> None:
    chats = [_chat("a", r, passed) for r, passed in enumerate([False, True, True, False, True, False, False])]
    pairs = preference_pairs(list(reversed(chats))).pairs
    assert [(p["chosen_trial_id"][-1], p["rejected_trial_id"][-1]) for p in pairs] == [("1", "0"), ("2", "3"),
                                                                                      ("4", "5")]
    first = pairs[0]
    assert first["prompt"] == [SYSTEM, OPENING]
    assert first["chosen"] == [{"role": "assistant", "content": "a attempt 1"}]
    assert first["rejected"] == [{"role": "assistant", "content": "a attempt 0"}]
    assert (first["chosen_reward"], first["rejected_reward"], first["rejected_signature"]) == (1.0, 0.0, "wrong_value")


def test_tasks_without_a_pair_are_counted_by_reason() -> None:
    other = {"role": "user", "content": "Something else."}
    chats = [_chat("both", 0, True), _chat("both", 1, False), _chat("wins", 0, True), _chat("loses", 0, False),
             _chat("differ", 0, True), _chat("differ", 1, False, opening=other)]
    pairing = preference_pairs(chats)
    assert [p["task_id"] for p in pairing.pairs] == ["both"]
    assert (pairing.tasks, pairing.only_passed, pairing.only_failed, pairing.prompts_differ) == (4, 1, 1, 1)
    assert pairing.summary() == ("exported 1 preference pairs from 1 of 4 tasks; 3 tasks with no pair "
                                 "(1 only passed, 1 only failed, 1 with different openings)")


def test_the_cli_pairs_a_real_run_in_trls_column_names(exports: Exports) -> None:
    done = exports.run("--format", "preference")
    pairs = exports.lines("--format", "preference")
    assert pairs, "the flaky fake model (seeded per attempt) gives some task both a pass and a fail"
    trials = RunDir(exports.run_dir).trials()
    passes = Counter(t.task_id for t in trials if t.passed)
    fails = Counter(t.task_id for t in trials if not t.passed)
    expected = {task: min(passes[task], fails[task]) for task in passes | fails}
    assert Counter(p["task_id"] for p in pairs) == Counter({k: v for k, v in expected.items() if v}), done.stderr
    unpaired = sum(1 for v in expected.values() if v == 0)
    assert f"{unpaired} tasks with no pair" in done.stderr, done.stderr
    chats = {c["trial_id"]: c for c in exports.lines()}
    for pair in pairs:
        assert {"prompt", "chosen", "rejected"} <= pair.keys()
        good, bad = chats[pair["chosen_trial_id"]], chats[pair["rejected_trial_id"]]
        assert good["verdict"]["passed"] and not bad["verdict"]["passed"]
        assert [m["role"] for m in pair["prompt"]] == ["system", "user"]
        assert pair["prompt"] + pair["chosen"] == good["messages"]
        assert pair["prompt"] + pair["rejected"] == bad["messages"]


def test_preference_with_only_is_a_one_line_error(run_dir: Path) -> None:
    done = subprocess.run([str(STATEBOX), "export", str(run_dir), "--format", "preference", "--only", "passed"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.startswith("error: --format preference")
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
