"""Issue 3's acceptance: the LLM agent on the fake model passes every retail task, and each mistake
mode fails the attempts it spoils with the discrepancy kinds that mistake leaves behind.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from conversation_kit import explain

from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
from statebox.fakemodel.agent import GIVE_UP
from statebox.runner.campaign import Campaign
from statebox.runner.plan import CampaignConfig
from statebox.runner.record import TrialRecord
from statebox.runner.store import RunDir
from statebox.suites import Suite

STATEBOX = str(Path(sys.executable).with_name("statebox"))

HEADPHONES = "headphones_return_window_closed_silver"  # writes: create_ticket, add_ticket_comment, update_ticket_status
GRILL = "grill_address_change_failed_verification"  # writes: create_ticket, handoff_to_human
PARCEL = "lost_camping_parcel_refund_in_held_ticket_gold"  # ends by updating a ticket from the seed data
TASKS = [HEADPHONES, GRILL, PARCEL]

Found = set[tuple[str, str, str | None]]  # (kind, table, field) of each discrepancy


def found(trial: TrialRecord) -> Found:
    return {(d.kind, d.table, d.field) for d in trial.discrepancies}


def test_the_cli_run_of_the_llm_agent_on_the_reference_fake_model_passes_every_retail_task(
    retail: Suite, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    with FakeModelServer(FakeModelApp(retail, FakeModelConfig(mode="reference"))) as server:
        command = [STATEBOX, "run", "retail", "--agent", "llm", "--model", "openai:fake"]
        command += ["--base-url", server.base_url, "--user", "scripted", "--repeat", "2", "--out", str(out)]
        done = subprocess.run([*command, "--no-progress"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr

    trials = RunDir(out).trials()
    attempts = 2 * len(retail.tasks)
    assert len(trials) == attempts, done.stderr
    assert RunDir(out).errors() == []
    assert Counter(t.task_id for t in trials) == {t.id: 2 for t in retail.tasks}
    failed = [explain(t) for t in trials if not t.passed]
    assert not failed, "\n\n".join(failed[:3])
    assert {(t.finish_reason, t.customer_end_reason) for t in trials} == {("customer_ended", "satisfied")}
    summary = f"{attempts} attempts: {attempts} passed, 0 failed, 0 infrastructure errors"
    assert summary in " ".join(done.stderr.split())


class ModeRuns:
    """One campaign per fake-model mode (and tools transport) over TASKS, run on first use."""

    def __init__(self, suite: Suite, root: Path) -> None:
        self.suite = suite.select(TASKS)
        self.root = root
        self._runs: dict[tuple[str, str], dict[str, TrialRecord]] = {}

    def __call__(self, mode: str, tools_via: str = "memory") -> dict[str, TrialRecord]:
        if (mode, tools_via) not in self._runs:
            self._runs[mode, tools_via] = self._run(mode, tools_via)
        return self._runs[mode, tools_via]

    def _run(self, mode: str, tools_via: str) -> dict[str, TrialRecord]:
        with FakeModelServer(FakeModelApp(self.suite, FakeModelConfig(mode=mode))) as server:
            config = CampaignConfig(
                suite=self.suite,
                agent="llm",
                out=self.root / f"{mode}-{tools_via}",
                models=["openai:fake"],
                base_url=server.base_url,
                user="scripted",
                tools_via=tools_via,
                progress=False,
            )
            campaign = Campaign(config)
            result = asyncio.run(campaign.run())
        assert result.errors == 0, result.error_messages
        return {t.task_id: t for t in campaign.run_dir.trials()}


@pytest.fixture(scope="module")
def runs(retail: Suite, tmp_path_factory: pytest.TempPathFactory) -> ModeRuns:
    return ModeRuns(retail, tmp_path_factory.mktemp("modes"))


@pytest.mark.parametrize(
    ("task", "extra"),
    [(HEADPHONES, ("extra_effect", "ticket_comments", None)), (GRILL, ("extra_effect", "tickets", None))],
)
def test_extra_write_fails_with_an_extra_effect_of_the_repeated_insert(
    runs: ModeRuns, task: str, extra: tuple[str, str, None]
) -> None:
    trial = runs("extra-write")[task]
    assert not trial.passed
    assert found(trial) == {extra}, explain(trial)
    assert trial.signature == "wrong_state_update"


@pytest.mark.parametrize(
    ("task", "wrong"),
    [(HEADPHONES, ("wrong_value", "tickets", "status")), (GRILL, ("wrong_value", "handoffs", "team"))],
)
def test_wrong_value_fails_with_a_wrong_value_on_the_spoiled_field(
    runs: ModeRuns, task: str, wrong: tuple[str, str, str]
) -> None:
    trial = runs("wrong-value")[task]
    assert not trial.passed
    assert found(trial) == {wrong}, explain(trial)


@pytest.mark.parametrize(
    ("task", "expected"),
    [
        # the skipped handoff_to_human would have inserted a handoff
        (GRILL, {("missing_effect", "handoffs", None)}),
        # the skipped update_ticket_status would have changed a ticket from the seed data
        (PARCEL, {("missing_effect", "tickets", "status"), ("missing_effect", "tickets", "hold_reason")}),
        # ... or the ticket the agent itself created: that row is there, with the wrong status (by design)
        (HEADPHONES, {("wrong_value", "tickets", "status")}),
    ],
    ids=["skipped-insert", "skipped-update", "skipped-update-of-own-insert"],
)
def test_skip_last_write_fails_on_what_the_skipped_write_would_have_changed(
    runs: ModeRuns, task: str, expected: Found
) -> None:
    trial = runs("skip-last-write")[task]
    assert not trial.passed
    assert found(trial) == expected, explain(trial)


@pytest.mark.parametrize("task", [HEADPHONES, GRILL])
def test_give_up_fails_with_the_tool_error_in_the_transcript(runs: ModeRuns, task: str) -> None:
    trial = runs("give-up")[task]
    assert not trial.passed
    assert {k for k, _, _ in found(trial)} == {"missing_effect"}, explain(trial)
    errors = [e for e in trial.transcript.tool_results() if e.is_error]
    assert [(e.tool_name, e.error_kind) for e in errors] == [("create_ticket", "invalid_arguments")]
    assert "missing required arguments" in errors[0].content
    assert GIVE_UP in [e.content for e in trial.transcript.visible()]


@pytest.mark.parametrize("tools_via", ["memory", "direct"])
def test_give_up_after_a_tool_error_is_signed_tool_usage_whatever_the_transport(runs: ModeRuns, tools_via: str) -> None:
    trial = runs("give-up", tools_via)[HEADPHONES]
    assert trial.signature == "tool_usage", explain(trial)


def test_the_reference_mode_passes_the_same_tasks_in_process(runs: ModeRuns) -> None:
    trials = runs("reference")
    assert sorted(trials) == sorted(TASKS)
    assert all(t.passed for t in trials.values()), [explain(t) for t in trials.values() if not t.passed]
