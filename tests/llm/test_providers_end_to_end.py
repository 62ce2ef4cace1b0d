"""Every provider plays a retail task to a pass against the fake model speaking its wire format.

Real HTTP on loopback: the fake model (`statebox fake-model --api API`) in a thread, a campaign
with the LLM agent and the LLM customer on the same provider, usage and cost in the trial record.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
from statebox.fakemodel.wire import Api
from statebox.runner.campaign import Campaign
from statebox.runner.plan import CampaignConfig
from statebox.runner.record import TrialRecord
from statebox.tasks import load_suite

TASK = "cancel_desk_wrong_order_number"
# Real model names, so genai-prices knows their prices; the fake model answers whatever the name.
PROVIDERS: list[tuple[Api, str]] = [
    ("openai", "openai:gpt-4.1-mini"),
    ("responses", "openai-responses:gpt-4.1-mini"),
    ("azure", "azure:gpt-4o"),
    ("anthropic", "anthropic:claude-sonnet-4-5"),
    ("google", "google:gemini-2.5-flash"),
    ("bedrock", "bedrock:anthropic.claude-3-5-sonnet-20240620-v1:0"),
]


def play(api: Api, spec: str, out: Path) -> list[TrialRecord]:
    suite = load_suite("retail").select(ids=[TASK])
    with FakeModelServer(FakeModelApp(load_suite("retail"), FakeModelConfig(api=api))) as server:
        config = CampaignConfig(
            suite=suite, agent="llm", out=out, models=[spec], base_url=server.base_url, user="llm", progress=False
        )
        campaign = Campaign(config)
        result = asyncio.run(campaign.run())
        assert result.errors == 0, result.error_messages
        assert server.app.stats.by_role["agent"] > 0 and server.app.stats.by_role["customer"] > 0
        return campaign.run_dir.trials()


@pytest.mark.parametrize(("api", "spec"), PROVIDERS, ids=[api for api, _ in PROVIDERS])
def test_the_provider_plays_a_retail_task_to_a_pass_with_usage_and_cost(
    api: Api, spec: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    for variable in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_PROFILE", "AZURE_OPENAI_API_KEY"):
        monkeypatch.delenv(variable, raising=False)

    [trial] = play(api, spec, tmp_path / "run")

    assert trial.passed, [(e.role, e.content[:80]) for e in trial.transcript.entries]
    for role in ("agent", "user"):  # the customer is the record's "user"
        usage = trial.usage[role]
        assert usage.input + usage.cached_input > 0 and usage.output > 0, (role, usage)
        cost = trial.cost_usd[role]
        assert cost is not None and cost > 0, f"{role} of {spec}: cost {cost}"
