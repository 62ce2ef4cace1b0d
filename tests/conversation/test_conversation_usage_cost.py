"""Token usage and cost per role in the trial record, and price overrides for unlisted models."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conversation_kit import call, explain, say

from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
from statebox.llm import ModelPrices, Usage
from statebox.runner.campaign import Campaign
from statebox.runner.plan import CampaignConfig
from statebox.runner.record import TrialRecord
from statebox.suites import Suite

PRICES = ModelPrices(input_per_mtok=2.0, cached_input_per_mtok=0.5, output_per_mtok=8.0)
PRICES_YAML = """\
openai:fake:
  input_per_mtok: 2.0
  cached_input_per_mtok: 0.5
  output_per_mtok: 8.0
"""


@pytest.fixture
def prices_file(tmp_path: Path) -> Path:
    path = tmp_path / "prices.yaml"
    path.write_text(PRICES_YAML)
    return path


def run_campaign(suite: Suite, base_url: str, out: Path, prices: Path | None, **options: Any) -> list[TrialRecord]:
    config = CampaignConfig(
        suite=suite,
        agent="llm",
        out=out,
        models=["openai:fake"],
        base_url=base_url,
        user="llm",
        concurrency=1,
        progress=False,
        prices_file=prices,
        **options,
    )
    campaign = Campaign(config)
    result = asyncio.run(campaign.run())
    assert result.errors == 0, result.error_messages
    return campaign.run_dir.trials()


def script_check_status(endpoint: Any) -> None:
    """Two agent calls and one customer call, each with its own usage; the customer ends at once."""
    endpoint.script(
        call("get_ticket", {"ticket_id": "T-2"}, prompt=1000, cached=384, completion=20, reasoning=5),
        say("Your login ticket is pending.", prompt=1200, completion=30),
        call("end_conversation", {"reason": "satisfied"}, prompt=300, completion=8),
    )


AGENT_USAGE = Usage(input=616 + 1200, cached_input=384, output=50, reasoning=5)
USER_USAGE = Usage(input=300, output=8)


def test_agent_usage_is_summed_over_its_calls_and_the_llm_customers_is_its_own(
    mini: Suite, agent_model: Any, tmp_path: Path, prices_file: Path
) -> None:
    script_check_status(agent_model)
    (trial,) = run_campaign(mini.select(["check-status"]), agent_model.openai_url, tmp_path / "run", prices_file)
    assert trial.usage["agent"] == AGENT_USAGE
    assert trial.usage["user"] == USER_USAGE
    assert trial.usage["judge"] == Usage()
    per_call = [e.usage for e in trial.transcript.entries if e.usage is not None]
    assert len(per_call) == 2, "each agent model call keeps its own usage in the transcript"


def test_a_price_override_prices_every_role_of_a_model_the_catalogue_does_not_know(
    mini: Suite, agent_model: Any, tmp_path: Path, prices_file: Path
) -> None:
    script_check_status(agent_model)
    (trial,) = run_campaign(mini.select(["check-status"]), agent_model.openai_url, tmp_path / "run", prices_file)
    assert trial.cost_usd["agent"] == pytest.approx(PRICES.cost(AGENT_USAGE))
    assert trial.cost_usd["user"] == pytest.approx(PRICES.cost(USER_USAGE))
    assert trial.total_cost() == pytest.approx(PRICES.cost(AGENT_USAGE + USER_USAGE))


def test_the_manifest_records_the_override_prices(
    mini: Suite, agent_model: Any, tmp_path: Path, prices_file: Path
) -> None:
    script_check_status(agent_model)
    run_campaign(mini.select(["check-status"]), agent_model.openai_url, tmp_path / "run", prices_file)
    prices = json.loads((tmp_path / "run" / "manifest.json").read_text())["prices"]
    assert prices == {"openai:fake": {"source": "override", **PRICES.table()}}


def test_without_a_price_the_cost_is_unknown_not_zero(mini: Suite, agent_model: Any, tmp_path: Path) -> None:
    script_check_status(agent_model)
    (trial,) = run_campaign(mini.select(["check-status"]), agent_model.openai_url, tmp_path / "run", None)
    assert trial.usage["agent"] == AGENT_USAGE, "usage is recorded whether or not it can be priced"
    assert (trial.cost_usd["agent"], trial.cost_usd["user"], trial.total_cost()) == (None, None, None)


@pytest.fixture(scope="module")
def fake_model(retail: Suite) -> Iterator[FakeModelServer]:
    with FakeModelServer(FakeModelApp(retail, FakeModelConfig(mode="reference"))) as server:
        yield server


def test_the_fake_model_playing_agent_and_llm_customer_passes_with_both_roles_priced(
    retail: Suite, fake_model: FakeModelServer, tmp_path: Path, prices_file: Path
) -> None:
    suite = retail.select(["headphones_return_window_closed_silver", "cancel_desk_wrong_order_number"])
    trials = run_campaign(suite, fake_model.base_url, tmp_path / "run", prices_file)
    assert len(trials) == 2
    for trial in trials:
        assert trial.passed, explain(trial)
        assert (trial.finish_reason, trial.customer_end_reason) == ("customer_ended", "satisfied")
        for role in ("agent", "user"):
            assert trial.usage[role].input + trial.usage[role].cached_input > 0, role
            assert trial.cost_usd[role] == pytest.approx(PRICES.cost(trial.usage[role])), role
