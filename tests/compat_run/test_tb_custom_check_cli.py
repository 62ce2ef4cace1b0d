"""Custom checks as a user meets them on the command line: tasks the benchmark skips are listed only with
`--all` and never run; without bubblewrap the checks are refused in one line unless
`--unsafe-custom-checks`; a run's trials say which mode judged them, its LLM agent's reply and tool
calls reach the check and the check's questions reach the judge model; `statebox show` prints the
check's verdict, its message and `file:line`, opening the suite with the run's own options."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tbfakes import FakeCheckout, make_fake_checkout, require_isolation
from tbfakes.endpoint import FakeEndpoint, Scripted, openai_reply

STATEBOX = str(Path(sys.executable).with_name("statebox"))
FILE = "custom_cli.py"
SOURCE = '''# Custom checks for the command line tests.
"""!
scenario: sandbox_external_retail
"""


def orders(x):
    return {row["id"]: row for row in x.effects["sandbox_external_retail"]["result_db_state"]["orders"]}


def test_cancelled(x, judge):
    """!
    query: Please cancel ORD-1.
    """
    assert orders(x)["ORD-1"]["status"] == "cancelled", f"ORD-1 is {orders(x)['ORD-1']['status']}"


def test_reply_confirms(x, judge):
    """!
    query: Please confirm my order ORD-2.
    """
    assert x.tool_calls and x.tool_calls[-1].tool_call.name == "get_order", "the agent looked nothing up"
    assert x.response.endswith("<DONE>"), x.response
    assert judge.text_yesno(x.response, "Does the reply confirm the order?")


def test_not_ready(x, judge):
    """!
    query: Skip me.
    tags: [skip]
    """
    assert False, "a skipped task never runs"
'''
IDS = [f"{FILE}:test_cancelled", f"{FILE}:test_reply_confirms", f"{FILE}:test_not_ready"]


def statebox(*args: str | Path, env: dict[str, str] | None = None, timeout: float = 180) -> subprocess.CompletedProcess[
    str
]:
    environ = {**os.environ, "COLUMNS": "250", **(env or {})}
    return subprocess.run([STATEBOX, *map(str, args)], capture_output=True, text=True, env=environ, timeout=timeout,
                          check=False)  # fmt: skip


@pytest.fixture(scope="module")
def fake(tmp_path_factory: pytest.TempPathFactory) -> FakeCheckout:
    made = make_fake_checkout(tmp_path_factory.mktemp("custom-cli") / "checkout")
    (made.root / "dataset/test_case" / FILE).write_text(SOURCE, encoding="utf-8")
    (made.root / "custom.yaml").write_text(yaml.safe_dump(IDS))
    return made


def suite_args(fake: FakeCheckout) -> list[str | Path]:
    return ["thinkingbox-bench", "--data", fake.root, "--test-list", fake.root / "custom.yaml"]


def test_a_task_tagged_skip_is_named_but_left_out(fake: FakeCheckout) -> None:
    done = statebox("tasks", *suite_args(fake))
    assert done.returncode == 0, done.stderr
    assert "thinkingbox-bench: 2 tasks (2 custom-check), 1 skipped" in done.stdout
    assert f"skipped {FILE}:test_not_ready: tagged skip (--all lists it)" in done.stdout


def test_tasks_all_lists_the_skipped_task_marked_skipped(fake: FakeCheckout) -> None:
    listing = statebox("tasks", *suite_args(fake), "--all", "--json")
    assert json.loads(listing.stdout)["skipped"] == [f"{FILE}:test_not_ready"]
    table = statebox("tasks", *suite_args(fake), "--all").stdout
    [row] = [line for line in table.splitlines() if "test_not_ready" in line]
    assert "skipped" in row, table


def test_without_bubblewrap_custom_checks_are_refused_in_one_line(fake: FakeCheckout) -> None:
    bare = {"PATH": str(Path(STATEBOX).parent)}  # no /usr/bin: no bwrap
    done = statebox("validate", *suite_args(fake), env=bare)
    assert done.returncode == 2, done.stdout + done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line == (
        "error: custom checks run only inside an isolation layer, and bubblewrap (bwrap) is not installed: install "
        "bubblewrap (Debian: apt-get install bubblewrap; `make sandbox` does it), or pass --unsafe-custom-checks to "
        "run them without it (rlimits, seccomp and an audit hook only)"
    )


def test_unsafe_custom_checks_run_without_bubblewrap_and_say_so(fake: FakeCheckout, tmp_path: Path) -> None:
    bare = {"PATH": str(Path(STATEBOX).parent)}
    done = statebox("run", *suite_args(fake), "--agent", "noop", "--out", tmp_path / "run", "--unsafe-custom-checks",
                    "--no-progress", env=bare)  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    trials = [json.loads(line) for line in (tmp_path / "run" / "trials.jsonl").read_text().splitlines()]
    assert {t["effects"]["custom_check"]["sandbox"] for t in trials} == {"unsafe"}


@pytest.fixture(scope="module")
def noop_run(fake: FakeCheckout, tmp_path_factory: pytest.TempPathFactory) -> Path:
    require_isolation()
    out = tmp_path_factory.mktemp("custom-run") / "run"
    done = statebox("run", *suite_args(fake), "--agent", "noop", "--out", out, "--no-progress")
    assert done.returncode in (0, 1), done.stderr
    return out


def trials(run: Path) -> dict[str, dict[str, Any]]:
    return {t["task_id"]: t for t in map(json.loads, (run / "trials.jsonl").read_text().splitlines())}


def test_a_run_leaves_out_the_skipped_task_and_records_bubblewrap_as_the_judge(noop_run: Path) -> None:
    found = trials(noop_run)
    assert sorted(found) == [f"{FILE}:test_cancelled", f"{FILE}:test_reply_confirms"]
    assert {t["effects"]["custom_check"]["sandbox"] for t in found.values()} == {"bwrap"}


def test_show_prints_the_checks_verdict_message_and_line_from_the_runs_own_options(noop_run: Path) -> None:
    done = statebox("show", noop_run, f"{FILE}:test_cancelled")  # no --data: the run's manifest names the checkout
    assert done.returncode == 0, done.stderr
    line = next(i for i, text in enumerate(SOURCE.splitlines(), 1) if 'assert orders(x)["ORD-1"]' in text)
    assert f"custom check failed at dataset/test_case/{FILE}:{line}" in done.stdout
    assert "AssertionError: ORD-1 is processing" in done.stdout
    assert f'{line}: assert orders(x)["ORD-1"]["status"] == "cancelled"' in done.stdout  # the line, from the checkout
    for nonsense in ("discrepancies: 0", "golden hash", "could not be opened"):
        assert nonsense not in done.stdout, done.stdout


def _play(path: str, body: dict[str, Any]) -> Scripted:
    """Agent: look ORD-2 up, then confirm it; customer: done; judge: yes."""
    role = next((m for m in body["messages"] if m["role"] == "system"), {}).get("content", "")
    if role.startswith(("You judge", "You answer a yes-or-no")):  # the custom-check judge prompts
        return Scripted(openai_reply('{"answer": "yes", "reason": "scripted"}'))
    if not body.get("tools"):
        return Scripted(openai_reply("Thanks, that is all. ###STOP###"))
    if any(m["role"] == "tool" for m in body["messages"]):
        return Scripted(openai_reply("ORD-2 is confirmed. <DONE>"))
    call = [("call_1", "get_order", json.dumps({"order_id": "ORD-2"}))]
    return Scripted(openai_reply(None, tool_calls=call, finish_reason="tool_calls"))


def test_an_llm_agents_reply_and_calls_reach_the_check_and_its_question_the_judge(
    fake: FakeCheckout, tmp_path: Path
) -> None:
    require_isolation()
    with FakeEndpoint() as endpoint:
        endpoint.checks.append(_play)
        done = statebox("run", *suite_args(fake), "--tasks", "*test_reply_confirms", "--model", "openai:scripted",
                        "--base-url", endpoint.openai_url, "--user", "scripted", "--out", tmp_path / "run",
                        "--no-progress")  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    [trial] = trials(tmp_path / "run").values()
    check = trial["effects"]["custom_check"]
    assert (trial["passed"], check["status"]) == (True, "passed"), check["summary"]
    assert check["questions"] == [{"method": "text_yesno", "args": {"text": "ORD-2 is confirmed. <DONE>",
                                   "question": "Does the reply confirm the order?"}, "answer": True,
                                   "reason": "scripted"}]  # fmt: skip
