"""A simulated customer that misplays is flagged, left out of the headline numbers, and rerun.

A real `statebox run` (a subprocess) talks over HTTP to a scripted endpoint (tests/llm/fake_endpoints.py
FakeEndpoint) whose check plays both sides with statebox's fake model: the agent replays the
reference solution, the LLM customer answers from its profile. In two chosen attempts the customer
misplays once — it states a private fact nobody asked for, or mentions an order number it does not
hold — and then gives up, so those attempts fail. They must be flagged `simulator_fault` with the
evidence, left out of pass@1 (which stays that of the clean attempts), and run again by
`--resume --rerun-simulator-faults`; the second time the endpoint behaves and they become normal
trials, each trial id keeping exactly one effective trial.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

import pytest

from statebox.fakemodel import FakeModelApp, FakeModelConfig
from statebox.fakemodel.protocol import ChatRequest, Reply, ToolCallOut, completion, parse_request
from statebox.judge.fidelity import SimulatorFault
from statebox.report.aggregate import build_report
from statebox.report.runs import load_runs
from statebox.runner.campaign import Campaign
from statebox.runner.plan import CampaignConfig
from statebox.runner.record import TrialRecord, attempt_seed, trial_id
from statebox.runner.store import RunDir
from statebox.suites import load_suite
from statebox.tasks import Task
from statebox.tasks.dialogue import asks_for, states

STATEBOX = str(Path(sys.executable).with_name("statebox"))
MODEL = "openai:scripted"
RETAIL = load_suite("retail")
TASKS = ["cancel_desk_wrong_order_number", "stalled_tent_carrier_investigation"]
REPEAT = 2
Misplay = Literal["leak", "invent"]
# The chosen attempts and how the customer misplays in each.
CHOSEN: dict[str, Misplay] = {
    trial_id("retail", "stalled_tent_carrier_investigation", "llm", MODEL, 1): "leak",
    trial_id("retail", "cancel_desk_wrong_order_number", "llm", MODEL, 0): "invent",
}
INVENTED = "ORD-99999"
CUSTOMER_PROMPT_START = "You are playing a customer"  # the first line of the LLM customer's system prompt
JUDGE_PROMPT_START = "You grade"  # the rubric judge's


def _load_fake_endpoints() -> ModuleType:
    """tests/llm/fake_endpoints.py by its path (tests/ is not a package)."""
    name = "statebox_campaign_fake_endpoints"
    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).resolve().parents[1] / "llm" / "fake_endpoints.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, f"cannot load {path}"
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


_fake = _load_fake_endpoints()


@dataclass
class MisplayingCustomer:
    """A FakeEndpoint check answering every request (agent, customer, rubric judge) as the fake model would,
    except that in the chosen attempts the customer misplays once and then gives up (while `misplay` is on).

    Requests carry no trial id; the agent's carry the attempt's seed, and with --concurrency 1 the
    customer's request belongs to the attempt of the agent request just before it."""

    app: FakeModelApp = field(default_factory=lambda: FakeModelApp(RETAIL, FakeModelConfig(mode="reference")))
    misplay: bool = True
    current: str | None = None
    customer_turns: dict[str, int] = field(default_factory=dict)
    misplayed: dict[str, str] = field(default_factory=dict)  # trial id -> what the customer said
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, path: str, body: dict[str, Any]) -> Any:
        request = parse_request(body)
        with self.lock:
            if request.system.startswith(CUSTOMER_PROMPT_START):
                reply = self._customer(request)
            elif request.system.startswith(JUDGE_PROMPT_START):
                reply, _, _ = self.app.respond(request, "judge")
            else:
                reply = self._agent(request)
        return _fake.Scripted(completion(request, reply, "chatcmpl-misplay"))

    def _agent(self, request: ChatRequest) -> Reply:
        by_seed = {attempt_seed(t): t for t in _all_trial_ids()}
        self.current = by_seed.get(request.seed) if request.seed is not None else None
        reply, _, _ = self.app.respond(request, "agent")
        return reply

    def _customer(self, request: ChatRequest) -> Reply:
        reply, _, _ = self.app.respond(request, "customer")
        tid = self.current
        how = CHOSEN.get(tid or "") if self.misplay else None
        if tid is None or how is None:
            return reply
        if tid in self.misplayed:  # misplayed already: give up
            return Reply(call=ToolCallOut("end_conversation", {"reason": "gave_up"}))
        said = _misplayed_text(how, _task_of(tid), request, reply.text) if reply.call is None else None
        if said is None:  # not at this turn: answer properly
            return reply
        self.misplayed[tid] = said
        return Reply(said)


def _all_trial_ids() -> list[str]:
    return [trial_id("retail", t, "llm", MODEL, r) for t in TASKS for r in range(REPEAT)]


def _task_of(tid: str) -> Task:
    return next(t for t in RETAIL.tasks if t.id == tid.split("/")[1])


def _misplayed_text(how: Misplay, task: Task, request: ChatRequest, answer: str) -> str | None:
    """The customer's proper answer plus a fact nobody asked for, or plus an order number it does not hold
    while the agent is not asking for one (that would be a contradiction); None when this turn cannot."""
    said = [t.text for t in request.conversation()]
    if how == "invent":
        order = next(f for f in task.customer.facts if f.key == "order_number")
        return None if asks_for(order, said[-1]) else f"{answer} Or maybe it was {INVENTED}, I am not sure."
    unasked = [f for f in task.customer.facts if not any(asks_for(f, s) or states(f, s) for s in said)]
    return f"{answer} Also, my {unasked[0].key.replace('_', ' ')} is {unasked[0].value}." if unasked else None


@pytest.fixture
def endpoint() -> Iterator[tuple[Any, MisplayingCustomer]]:
    customer = MisplayingCustomer()
    with _fake.FakeEndpoint() as server:
        server.checks.append(customer)
        yield server, customer


def _statebox(*args: str) -> subprocess.CompletedProcess[str]:
    drop = {"COLUMNS", "LINES", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    return subprocess.run([STATEBOX, *args], capture_output=True, text=True, env=env, timeout=180)


def _run(server: Any, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    selection = [arg for task in TASKS for arg in ("--tasks", task)]
    return _statebox(
        "run", "retail", "--agent", "llm", "--model", MODEL, "--base-url", server.openai_url, "--user", "llm",
        "--repeat", str(REPEAT), "--concurrency", "1", "--workers", "1", *selection, "--out", str(out),
        "--no-progress", *extra,
    )  # fmt: skip


def _lines(out: Path) -> list[TrialRecord]:
    text = (out / "trials.jsonl").read_text(encoding="utf-8")
    return [TrialRecord.model_validate_json(line) for line in text.splitlines() if line.strip()]


def _report(out: Path) -> dict[str, Any]:
    runs: list[dict[str, Any]] = build_report(load_runs([out]))["runs"]
    assert len(runs) == 1, runs
    return runs[0]


def _explain(records: list[TrialRecord]) -> str:
    shown = [
        {"id": t.trial_id, "passed": t.passed, "faults": [f.model_dump() for f in t.simulator_faults]} for t in records
    ]
    return json.dumps(shown, indent=1)


def test_misplayed_attempts_are_flagged_left_out_and_rerun(tmp_path: Path, endpoint: tuple[Any, Any]) -> None:
    server, customer = endpoint
    out = tmp_path / "run"
    first = _run(server, out)
    assert first.returncode == 0, first.stderr
    said = " ".join(first.stderr.split())
    assert "2 trial(s) with simulator faults" in said and "--rerun-simulator-faults" in said, first.stderr
    assert set(customer.misplayed) == set(CHOSEN), f"the endpoint misplayed in {sorted(customer.misplayed)}"

    # 1. Both chosen attempts are flagged, with the evidence; the others are clean and pass.
    records = {t.trial_id: t for t in _lines(out)}
    assert sorted(records) == sorted(_all_trial_ids()), _explain(list(records.values()))
    leak_id, invent_id = (next(t for t, how in CHOSEN.items() if how == kind) for kind in ("leak", "invent"))
    leaked = [f for f in records[leak_id].simulator_faults if f.kind == "leaked_fact"]
    assert leaked and leaked[0].fact is not None and "before the agent asked" in leaked[0].evidence, _explain(
        [records[leak_id]]
    )
    entry = records[leak_id].transcript.entries[leaked[0].message_index]
    assert entry.role == "customer" and entry.content == customer.misplayed[leak_id], "the fault names the message"
    invented = [f for f in records[invent_id].simulator_faults if f.kind == "invented_identifier"]
    assert invented and INVENTED in invented[0].evidence, _explain([records[invent_id]])
    clean = [t for tid, t in records.items() if tid not in CHOSEN]
    assert all(not t.simulator_faults and t.passed for t in clean), _explain(clean)
    assert not any(records[t].passed for t in CHOSEN), "the misplayed attempts should fail (the customer gave up)"

    # 2. The report leaves them out of pass@1 and counts them apart, per kind.
    report = _report(out)
    assert (report["attempts"], report["simulator_faults"], report["simulator_fault_share"]) == (2, 2, 0.5)
    assert report["simulator_fault_kinds"].get("leaked_fact") == 1, report["simulator_fault_kinds"]
    assert report["simulator_fault_kinds"].get("invented_identifier") == 1, report["simulator_fault_kinds"]
    assert report["pass_at_1"] == 1.0, "pass@1 is over the clean attempts, which all passed"
    assert report["failed_attempts"] == 0 and report["signatures"] == {}, "a simulator fault is no agent failure"
    assert (report["short_tasks"], report["canonical"]) == (2, False)
    assert {(s["task_id"], s["simulator_faults"]) for s in report["shortfall"]} == {(t, 1) for t in TASKS}
    assert {f["task_id"] for f in report["flagged_tasks"]} == set(TASKS)

    # 3. A plain --resume does not rerun them; --rerun-simulator-faults runs exactly those two again.
    before = (out / "trials.jsonl").read_bytes()
    plain = _run(server, out, "--resume")
    assert plain.returncode == 0 and plain.stderr.startswith("0 new attempts"), plain.stderr
    customer.misplay = False
    rerun = _run(server, out, "--resume", "--rerun-simulator-faults")
    assert rerun.returncode == 0, rerun.stderr
    assert rerun.stderr.startswith("2 new attempts: 2 passed"), rerun.stderr
    assert "simulator faults" not in rerun.stderr, rerun.stderr
    assert (out / "trials.jsonl").read_bytes().startswith(before), "the flagged records stay, superseded"

    lines = _lines(out)
    appended = sorted(t.trial_id for t in lines[len(records) :])
    assert appended == sorted(CHOSEN), f"only the two reruns were appended: {appended}"
    effective = {t.trial_id: t for t in RunDir(out).trials()}
    assert sorted(effective) == sorted(_all_trial_ids()), "one effective trial per (task, repeat)"
    assert all(t.passed and not t.simulator_faults for t in effective.values()), _explain(list(effective.values()))
    report = _report(out)
    assert (report["attempts"], report["simulator_faults"], report["canonical"]) == (4, 0, True), report
    assert report["pass_at_1"] == 1.0

    # 4. Nothing is left to rerun.
    again = _run(server, out, "--resume", "--rerun-simulator-faults")
    assert again.returncode == 0 and again.stderr.startswith("0 new attempts"), again.stderr


def test_rerun_simulator_faults_needs_resume(tmp_path: Path) -> None:
    result = _statebox(
        "run", "retail", "--agent", "reference", "--tasks", TASKS[0], "--out", str(tmp_path / "run"),
        "--rerun-simulator-faults", "--no-progress",
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("error: --rerun-simulator-faults") and "--resume" in result.stderr, result.stderr


def _reference_config(out: Path, shard: tuple[int, int], *, rerun: bool = False) -> CampaignConfig:
    return CampaignConfig(
        suite=RETAIL.select(TASKS), agent="reference", out=out, repeat=REPEAT, shard=shard, resume=rerun,
        rerun_simulator_faults=rerun, workers=1, progress=False,
    )  # fmt: skip


def test_a_rerun_stays_in_its_shard_and_every_trial_counts_once(tmp_path: Path) -> None:
    dirs = [tmp_path / f"shard{i}" for i in range(2)]
    for i, out in enumerate(dirs):
        Campaign(_reference_config(out, (i, 2))).run_blocking()
    held = next(i for i, out in enumerate(dirs) if RunDir(out).trials())
    victim = RunDir(dirs[held]).trials()[0]
    fault = SimulatorFault(kind="leaked_fact", message_index=0, fact="email", evidence="stated email unasked")
    RunDir(dirs[held]).append_trial(victim.model_copy(update={"simulator_faults": [fault]}))  # as if it misplayed
    merged = build_report(load_runs(dirs))["runs"][0]
    assert (merged["attempts"], merged["simulator_faults"]) == (REPEAT * len(TASKS) - 1, 1), merged

    ran = [Campaign(_reference_config(out, (i, 2), rerun=True)).run_blocking().ran for i, out in enumerate(dirs)]
    assert ran == [1 if i == held else 0 for i in range(2)], f"only the flagged trial reruns, in its shard: {ran}"
    effective = [t.trial_id for out in dirs for t in RunDir(out).trials()]
    planned = [trial_id("retail", t, "reference", None, r) for t in TASKS for r in range(REPEAT)]
    assert sorted(effective) == sorted(planned), "one effective trial per (task, repeat), across the shards"
    merged = build_report(load_runs(dirs))["runs"][0]
    assert (merged["attempts"], merged["simulator_faults"], merged["canonical"]) == (REPEAT * len(TASKS), 0, True)
