"""A failing model endpoint makes infrastructure errors (errors.jsonl), never failed trials; --resume completes them.

The endpoint is the fake model behind a switch: while failing, every request of chosen tasks gets an HTTP 500
(or hangs, for timeouts); once healthy, `--resume` must finish exactly those attempts.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from starlette.responses import JSONResponse
from starlette.types import Message, Receive, Scope, Send

from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
from statebox.llm.client import make_client
from statebox.llm.retry import RetryPolicy
from statebox.report.aggregate import build_report
from statebox.report.runs import load_runs
from statebox.runner.campaign import Campaign
from statebox.runner.plan import CampaignConfig, ToolsVia
from statebox.runner.record import ErrorRecord, TrialRecord, trial_id
from statebox.suites import load_suite

STATEBOX = str(Path(sys.executable).with_name("statebox"))
MODEL = "openai:fake"
TASKS = [
    "cancel_desk_wrong_order_number",
    "washer_installation_reschedule",
    "defective_blender_replacement_gold",
]
BROKEN = "washer_installation_reschedule"  # the task whose requests fail while the endpoint is failing
REPEAT = 2
RETAIL = load_suite("retail")


class SwitchableEndpoint:
    """The fake model, except that while `failing` the requests of chosen tasks fail.

    A failing request is answered HTTP 500 with `retry-after-ms: 0` (the client's whole retry budget is
    spent at once), or, with `hang=True`, held until the endpoint is healthy again (the client times out).
    """

    def __init__(self, inner: FakeModelApp, openings: list[str], *, hang: bool = False) -> None:
        self.inner = inner
        self.needles = [json.dumps(o, ensure_ascii=False)[1:-1] for o in openings]
        self.hang = hang
        self.failing = True
        self.failed_requests = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.failing or not scope["path"].endswith("/chat/completions"):
            await self.inner(scope, receive, send)
            return
        body = await _read_body(receive)
        messages = json.dumps(json.loads(body).get("messages", []), ensure_ascii=False)
        if not any(n in messages for n in self.needles):
            await self.inner(scope, _replay(body, receive), send)
            return
        self.failed_requests += 1
        while self.hang and self.failing:
            await asyncio.sleep(0.02)
        error = {"error": {"message": "injected failure (test)", "type": "server_error"}}
        await JSONResponse(error, status_code=500, headers={"retry-after-ms": "0"})(scope, receive, send)


async def _read_body(receive: Receive) -> bytes:
    body, more = b"", True
    while more:
        message = await receive()
        body += message.get("body", b"")
        more = message.get("more_body", False)
    return body


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def again() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return again


def _endpoint(*, hang: bool = False) -> SwitchableEndpoint:
    broken = next(t for t in RETAIL.tasks if t.id == BROKEN)
    app = FakeModelApp(RETAIL, FakeModelConfig(mode="reference"))
    return SwitchableEndpoint(app, [broken.opening_message], hang=hang)


def _env() -> dict[str, str]:
    drop = {"COLUMNS", "LINES", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"}
    return {k: v for k, v in os.environ.items() if k not in drop}


def _statebox(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([STATEBOX, *args], capture_output=True, text=True, env=_env(), timeout=120)


def _run_args(base_url: str, out: Path, tasks: list[str] = TASKS, repeat: int = REPEAT) -> list[str]:
    selection = [arg for task in tasks for arg in ("--tasks", task)]
    return [
        "run", "retail", "--agent", "llm", "--model", MODEL, "--base-url", base_url, "--user", "scripted",
        "--repeat", str(repeat), "--concurrency", "4", *selection, "--out", str(out), "--no-progress",
    ]  # fmt: skip


def _ids(task_ids: list[str]) -> set[str]:
    return {trial_id("retail", t, "llm", MODEL, r) for t in task_ids for r in range(REPEAT)}


def _trials(out: Path) -> list[TrialRecord]:
    text = (out / "trials.jsonl").read_text(encoding="utf-8")
    return [TrialRecord.model_validate_json(line) for line in text.splitlines() if line.strip()]


def _errors(out: Path) -> list[ErrorRecord]:
    text = (out / "errors.jsonl").read_text(encoding="utf-8")
    return [ErrorRecord.model_validate_json(line) for line in text.splitlines() if line.strip()]


def _report_run(out: Path) -> dict[str, Any]:
    """The one entry of `report --json` (built in process, as the command builds it)."""
    runs: list[dict[str, Any]] = build_report(load_runs([out]))["runs"]
    assert len(runs) == 1, runs
    return runs[0]


def _assert_only_broken_task_errored(out: Path) -> list[ErrorRecord]:
    healthy = [t for t in TASKS if t != BROKEN]
    trials, errors = _trials(out), _errors(out)
    assert {t.trial_id for t in trials} == _ids(healthy), "the broken task's attempts must not be trials at all"
    assert len(trials) == len(_ids(healthy)), "no trial recorded twice"
    assert {e.trial_id for e in errors} == _ids([BROKEN])
    return errors


def _assert_resume_completed(out: Path) -> None:
    trials = _trials(out)
    assert sorted(t.trial_id for t in trials) == sorted(_ids(TASKS)), "one trial per attempt, none missing"
    finished = {t.trial_id for t in trials}
    left = [e.trial_id for e in _errors(out) if e.trial_id in finished]
    assert not left, f"errors.jsonl still holds errors of finished trials: {left}"


def test_http_500s_become_errors_not_failed_trials_and_resume_completes_them(tmp_path: Path) -> None:
    out = tmp_path / "run"
    endpoint = _endpoint()
    with FakeModelServer(endpoint) as server:  # type: ignore[arg-type]  # any ASGI app serves
        first = _statebox(*_run_args(server.base_url, out))
        assert first.returncode == 3, f"infrastructure errors remain, so exit 3: {first.stderr}"
        assert "--resume" in first.stderr, f"the summary should say how to retry the errors: {first.stderr}"

        errors = _assert_only_broken_task_errored(out)
        for e in errors:
            assert "HTTP 500" in e.message, e.message
        tries = {int(m.group(1)) for e in errors if (m := re.search(r"after (\d+) attempts", e.message))}
        assert len(tries) == 1 and tries.pop() * len(errors) == endpoint.failed_requests > len(errors), (
            "each errored attempt spends the same bounded retry budget",
            [e.message for e in errors],
            endpoint.failed_requests,
        )
        report = _report_run(out)
        assert (report["attempts"], report["infra_errors"]) == (len(_ids(TASKS)) - len(errors), len(errors))

        before = (out / "trials.jsonl").read_bytes()
        endpoint.failing = False
        resumed = _statebox(*_run_args(server.base_url, out), "--resume")
        assert resumed.returncode == 0, resumed.stderr
        assert resumed.stderr.startswith(f"{len(errors)} new attempts"), f"only errored ones rerun: {resumed.stderr}"

    assert (out / "trials.jsonl").read_bytes().startswith(before), "finished trials are never rewritten"
    _assert_resume_completed(out)
    report = _report_run(out)
    assert (report["attempts"], report["infra_errors"]) == (len(_ids(TASKS)), 0)


@pytest.mark.parametrize("tools_via", ["direct", "memory", "http"])
def test_an_endpoint_failure_is_recorded_as_kind_model_endpoint(tmp_path: Path, tools_via: ToolsVia) -> None:
    out = tmp_path / "run"
    with FakeModelServer(_endpoint()) as server:  # type: ignore[arg-type]
        config = _config(server.base_url, out, tasks=[BROKEN], repeat=1, tools_via=tools_via)
        asyncio.run(Campaign(config).run())
    assert [(e.kind, e.message.startswith(f"{MODEL} at ")) for e in _errors(out)] == [("model_endpoint", True)]
    assert _report_run(out)["infra_error_kinds"] == {"model_endpoint": 1}


def _config(
    base_url: str,
    out: Path,
    *,
    resume: bool = False,
    tasks: list[str] = TASKS,
    repeat: int = REPEAT,
    tools_via: ToolsVia = "memory",
) -> CampaignConfig:
    return CampaignConfig(
        suite=RETAIL.select(tasks),
        agent="llm",
        out=out,
        models=[MODEL],
        base_url=base_url,
        user="scripted",
        repeat=repeat,
        concurrency=4,
        resume=resume,
        tools_via=tools_via,
        progress=False,
    )


async def _run_with_retry_budget(config: CampaignConfig, policy: RetryPolicy) -> None:
    """Run a campaign whose model client has `policy` (the CLI offers no retry or timeout option)."""
    campaign = Campaign(config)
    old = campaign.clients[MODEL]
    campaign.clients[MODEL] = make_client(MODEL, base_url=config.base_url, retry=policy, max_concurrency=4)
    await old.aclose()
    await campaign.run()


def test_request_timeouts_become_errors_and_resume_completes_them(tmp_path: Path) -> None:
    out = tmp_path / "run"
    endpoint = _endpoint(hang=True)
    short = RetryPolicy(max_retries=1, base_delay=0.0, timeout_s=0.3)
    with FakeModelServer(endpoint) as server:  # type: ignore[arg-type]
        asyncio.run(_run_with_retry_budget(_config(server.base_url, out), short))
        errors = _assert_only_broken_task_errored(out)
        for e in errors:
            assert "no response after 2 attempts" in e.message and "timed out" in e.message, e.message
        assert _report_run(out)["infra_errors"] == len(errors)

        endpoint.failing = False
        asyncio.run(_run_with_retry_budget(_config(server.base_url, out, resume=True), short))

    _assert_resume_completed(out)
    assert _errors(out) == []
    assert _report_run(out)["infra_errors"] == 0
