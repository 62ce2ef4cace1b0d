"""`statebox export --format chat-jsonl` on a demo-like run: valid JSONL in the chat format, ending on the agent's
last turn, arguments as objects or strings, no private facts leaked."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from export.conftest import STATEBOX, TASKS, Exports
from statebox.runner.store import RunDir
from statebox.suites import Suite


def test_every_attempt_is_one_line_in_the_chat_format_with_its_reward(exports: Exports) -> None:
    trials = RunDir(exports.run_dir).trials()
    lines = exports.lines()
    assert sorted(r["trial_id"] for r in lines) == sorted(t.trial_id for t in trials)
    for record in lines:
        roles = [m["role"] for m in record["messages"]]
        assert roles[0] == "system" and roles[1] == "user", roles
        assert set(roles) <= {"system", "user", "assistant", "tool"}, roles
        calls = {c["id"] for m in record["messages"] if m["role"] == "assistant" for c in m.get("tool_calls", [])}
        answered = {m["tool_call_id"] for m in record["messages"] if m["role"] == "tool"}
        assert answered <= calls, f"{record['trial_id']}: tool results without a call: {answered - calls}"
        assert {t["function"]["name"] for t in record["tools"]} >= {"find_customer", "issue_refund"}
        assert record["reward"] == (1.0 if record["verdict"]["passed"] else 0.0)
        assert (record["domain"], record["model"], record["schema_version"]) == ("retail", "openai:fake", 2)
        assert record["repeat"] in (0, 1, 2) and record["task_id"] in TASKS


def test_records_end_on_the_agents_last_turn_the_closing_customer_message_dropped(exports: Exports) -> None:
    by_id = {t.trial_id: t for t in RunDir(exports.run_dir).trials()}
    dropped = 0
    for record in exports.lines():
        assert record["messages"][-1]["role"] in ("assistant", "tool"), (record["trial_id"], record["messages"][-1])
        entries = [e for e in by_id[record["trial_id"]].transcript.entries if e.role != "customer" or e.content]
        last_agent = max(i for i, e in enumerate(entries) if e.role != "customer")
        dropped += len(entries) - 1 - last_agent
    assert dropped > 0, "the run should have closing customer messages for this test to mean anything"


def test_arguments_are_objects_by_default_and_json_text_with_arguments_string(exports: Exports) -> None:
    objects = {r["trial_id"]: r for r in exports.lines()}
    strings = {r["trial_id"]: r for r in exports.lines("--arguments", "string")}
    seen = 0
    for trial_id, record in objects.items():
        pairs = zip(record["messages"], strings[trial_id]["messages"], strict=True)
        for as_object, as_string in pairs:
            for c, s in zip(as_object.get("tool_calls", []), as_string.get("tool_calls", []), strict=True):
                assert isinstance(c["function"]["arguments"], dict), c
                assert isinstance(s["function"]["arguments"], str), s
                assert json.loads(s["function"]["arguments"]) == c["function"]["arguments"]
                seen += 1
    assert seen > 0, "no tool calls in the run"


def test_a_bad_arguments_value_is_a_one_line_error(run_dir: Path) -> None:
    done = subprocess.run([str(STATEBOX), "export", str(run_dir), "--arguments", "yaml"],
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr.strip()) == (2, "error: --arguments 'yaml': expected object or string")


def test_only_passed_and_only_failed_split_the_attempts(exports: Exports) -> None:
    everything = {r["trial_id"] for r in exports.lines()}
    passed = {r["trial_id"] for r in exports.lines("--only", "passed")}
    failed = {r["trial_id"] for r in exports.lines("--only", "failed")}
    assert passed | failed == everything and not passed & failed
    assert all(r["reward"] == 1.0 for r in exports.lines("--only", "passed"))


def test_private_facts_reach_agent_side_messages_only_as_the_customer_said_them(exports: Exports, suite: Suite) -> None:
    tasks = {t.id: t for t in suite.tasks}
    for record in exports.lines():
        task = tasks[record["task_id"]]
        said = " ".join(m["content"] for m in record["messages"] if m["role"] == "user")
        system = record["messages"][0]["content"] + json.dumps(record["tools"])
        assert task.customer.goal not in said + system, "the customer's goal is private"
        for fact in task.customer.facts:
            assert fact.value not in system, f"{record['trial_id']}: fact {fact.key} in the system message or tools"


def test_user_messages_are_what_the_customer_said_up_to_the_agents_last_turn(exports: Exports) -> None:
    by_id = {t.trial_id: t for t in RunDir(exports.run_dir).trials()}
    for record in exports.lines():
        said = [e.content for e in by_id[record["trial_id"]].transcript.entries if e.role == "customer" and e.content]
        users = [m["content"] for m in record["messages"] if m["role"] == "user"]
        assert users == said[: len(users)] and len(said) - len(users) <= 1, (users, said)


def test_a_directory_that_is_no_run_is_a_one_line_error(tmp_path: Path) -> None:
    done = subprocess.run([str(STATEBOX), "export", str(tmp_path), "--format", "chat-jsonl"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.startswith("error: ") and len(done.stderr.strip().splitlines()) == 1
    assert str(tmp_path) in done.stderr, done.stderr
