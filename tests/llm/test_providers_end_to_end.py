"""Every provider plays a retail task to a pass against the fake model speaking its wire format.

Real HTTP on loopback: the fake model (`statebox fake-model --api API`) in a thread, a campaign
with the LLM agent and the LLM customer on the same provider, usage and cost in the trial record.
"""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path

import pytest

from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
from statebox.fakemodel.wire import Api
from statebox.runner.campaign import Campaign
from statebox.runner.plan import CampaignConfig
from statebox.runner.record import TrialRecord
from statebox.suites import load_suite

from .loopback import ForwardProxy, Socks5Proxy, in_a_thread, private_ca

HAS_SOCKS = importlib.util.find_spec("aiohttp_socks") is not None

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


def play(api: Api, spec: str, out: Path, tls: tuple[str, str] | None = None) -> list[TrialRecord]:
    suite = load_suite("retail").select(ids=[TASK])
    with FakeModelServer(FakeModelApp(load_suite("retail"), FakeModelConfig(api=api)), tls=tls) as server:
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


def test_a_retail_task_plays_to_a_pass_over_tls_with_a_private_ca_through_an_http_proxy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    ca_file, _ = private_ca(tmp_path)
    proxy = ForwardProxy()
    with in_a_thread(proxy.handle) as proxy_port:
        monkeypatch.setenv("SSL_CERT_FILE", str(ca_file))
        monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{proxy_port}")
        monkeypatch.delenv("NO_PROXY", raising=False)
        monkeypatch.delenv("no_proxy", raising=False)
        tls = (str(tmp_path / "server.pem"), str(tmp_path / "server.key"))
        [trial] = play("anthropic", "anthropic:claude-sonnet-4-5", tmp_path / "run", tls=tls)

    assert trial.passed and trial.cost_usd["agent"]
    assert proxy.seen and all(line.startswith("CONNECT localhost:") for line in proxy.seen), proxy.seen


@pytest.mark.skipif(not HAS_SOCKS, reason="aiohttp-socks is not installed (the dev extra installs it)")
def test_a_retail_task_plays_to_a_pass_through_a_socks5_proxy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    proxy = Socks5Proxy()
    with in_a_thread(proxy.handle) as proxy_port:
        monkeypatch.setenv("ALL_PROXY", f"socks5://127.0.0.1:{proxy_port}")
        for name in ("HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy"):
            monkeypatch.delenv(name, raising=False)
        [trial] = play("google", "google:gemini-2.5-flash", tmp_path / "run")

    assert trial.passed and trial.cost_usd["agent"]
    assert proxy.targets, "nothing went through the proxy"
