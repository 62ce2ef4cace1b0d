"""Acceptance (issue 4): campaigns give identical verdicts through in-memory MCP, the proxy and direct calls.

Each campaign runs the whole retail suite in process (`statebox.runner.campaign.Campaign`, what
`statebox run` drives) into its own run directory; the trials are compared by trial id.
The reference agent must pass everywhere; the do-nothing agent fails everywhere with the same
discrepancies, which is what makes "identical verdicts" more than "all passed".
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

import statebox.runner.transports as transports
from statebox.runner.campaign import Campaign
from statebox.runner.plan import AgentKind, CampaignConfig, ToolsVia
from statebox.suites import Suite, load_suite

VIAS: list[ToolsVia] = ["memory", "http", "direct"]


class RunOutcome:
    """The trials of one campaign by trial id, and how many MCP connections of each kind it opened."""

    def __init__(self, out: Path, connections: Counter[str], errors: int) -> None:
        lines = (out / "trials.jsonl").read_text().splitlines()
        self.trials: dict[str, dict[str, Any]] = {t["trial_id"]: t for t in map(json.loads, lines)}
        self.connections = connections
        self.errors = errors

    def verdicts(self) -> dict[str, tuple[bool, list[dict[str, Any]], str]]:
        return {tid: (t["passed"], t["discrepancies"], t["state_hash"]) for tid, t in self.trials.items()}


def counting(connect: Callable[..., Any], kind: str, connections: Counter[str]) -> Callable[..., Any]:
    """Wrap an MCP connector so the test can tell which transport a campaign really used."""

    @asynccontextmanager
    async def wrapper(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        connections[kind] += 1
        async with connect(*args, **kwargs) as connected:
            yield connected

    return wrapper


def run_campaign(suite: Suite, agent: AgentKind, via: ToolsVia, out: Path) -> RunOutcome:
    connections: Counter[str] = Counter()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(transports, "connect_in_memory", counting(transports.connect_in_memory, "memory", connections))
        patch.setattr(
            transports, "streamable_http_client", counting(transports.streamable_http_client, "http", connections)
        )
        config = CampaignConfig(suite=suite, agent=agent, out=out, tools_via=via, concurrency=4, progress=False)
        result = asyncio.run(Campaign(config).run())
    return RunOutcome(out, connections, result.errors)


@pytest.fixture(scope="module")
def suite() -> Suite:
    return load_suite("retail")


@pytest.fixture(scope="module", params=["reference", "noop"])
def campaigns(
    request: pytest.FixtureRequest, suite: Suite, tmp_path_factory: pytest.TempPathFactory
) -> dict[ToolsVia, RunOutcome]:
    """One campaign of the agent per transport, each into its own run directory."""
    agent: AgentKind = request.param
    return {via: run_campaign(suite, agent, via, tmp_path_factory.mktemp(f"{agent}-{via}")) for via in VIAS}


def test_every_campaign_ran_every_task_without_infrastructure_errors(
    campaigns: dict[ToolsVia, RunOutcome], suite: Suite
) -> None:
    for via, outcome in campaigns.items():
        assert outcome.errors == 0, via
        assert len(outcome.trials) == len(suite.tasks), via


def test_each_campaign_reached_its_tools_through_its_own_transport(
    campaigns: dict[ToolsVia, RunOutcome], suite: Suite
) -> None:
    attempts = len(suite.tasks)
    assert {via: dict(o.connections) for via, o in campaigns.items()} == {
        "memory": {"memory": attempts},
        "http": {"http": attempts},
        "direct": {},
    }


@pytest.mark.parametrize("via", ["http", "direct"])
def test_verdicts_match_the_in_memory_campaign_trial_by_trial(
    campaigns: dict[ToolsVia, RunOutcome], via: ToolsVia
) -> None:
    expected, actual = campaigns["memory"].verdicts(), campaigns[via].verdicts()
    differing = {tid: {"memory": expected.get(tid), via: actual.get(tid)} for tid in expected.keys() | actual.keys()}
    assert {tid: d for tid, d in differing.items() if d["memory"] != d[via]} == {}


def test_the_reference_agent_passes_every_task_and_doing_nothing_only_the_read_only_ones(
    campaigns: dict[ToolsVia, RunOutcome], suite: Suite
) -> None:
    agent = next(iter(campaigns["memory"].trials.values()))["agent"]
    read_only = {task.id for task in suite.tasks if task.read_only}
    for via, outcome in campaigns.items():
        passed = {t["task_id"] for t in outcome.trials.values() if t["passed"]}
        expected = {task.id for task in suite.tasks} if agent == "reference" else read_only
        assert passed == expected, via
