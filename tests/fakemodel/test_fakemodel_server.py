"""The fake model's HTTP surface: models, usage, injected failures, latency, bad requests, stats."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import openai
import pytest
from fakemodel_shop import REFUND, client, fake_model, shop_suite

from statebox.fakemodel import FakeModelConfig

OPENING = [{"role": "user", "content": REFUND.opening_message}]


def post(base_url: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{base_url}/chat/completions", json=body, timeout=5)


def statuses(base_url: str, n: int) -> list[int]:
    with httpx.Client(base_url=base_url, timeout=5) as http:
        return [
            http.post("/chat/completions", json={"model": "fake", "messages": OPENING}).status_code for _ in range(n)
        ]


def test_models_lists_the_fake_model() -> None:
    async def ids() -> list[str]:
        async with client(server) as api:
            return [m.id async for m in api.models.list()]

    with fake_model(shop_suite()) as server:
        assert asyncio.run(ids()) == ["fake"]


def test_usage_counts_prompt_completion_and_a_cached_prefix() -> None:
    system = {"role": "system", "content": "You are a support agent. " * 40}
    history = [system, *OPENING, {"role": "assistant", "content": "Could you tell me your order number?"}]

    async def usages() -> list[Any]:
        async with client(server) as api:
            first = await api.chat.completions.create(model="fake", messages=[system, *OPENING])  # type: ignore[list-item]
            later = await api.chat.completions.create(
                model="fake",
                messages=[*history, {"role": "user", "content": "It is ORD-1001, email jane@example.com."}],  # type: ignore[list-item]
            )
        return [first.usage, later.usage]

    with fake_model(shop_suite()) as server:
        first, later = asyncio.run(usages())
    assert later.prompt_tokens > first.prompt_tokens > 60
    assert 0 < later.prompt_tokens_details.cached_tokens < later.prompt_tokens
    assert later.completion_tokens > 0 and later.total_tokens == later.prompt_tokens + later.completion_tokens


def test_the_first_n_requests_fail_with_500_then_requests_succeed() -> None:
    async def three() -> list[str]:
        outcomes = []
        async with client(server) as api:
            for _ in range(3):
                try:
                    await api.chat.completions.create(model="fake", messages=OPENING)  # type: ignore[arg-type]
                    outcomes.append("ok")
                except openai.InternalServerError:
                    outcomes.append("500")
        return outcomes

    with fake_model(shop_suite(), fail_first_n=2) as server:
        assert asyncio.run(three()) == ["500", "500", "ok"]
        stats = httpx.get(f"http://{server.host}:{server.port}/stats").json()
    assert (stats["requests"], stats["failures_injected"], stats["completions"]) == (3, 2, 1)


def test_the_fail_rate_is_seeded() -> None:
    patterns = []
    for seed in (7, 7, 8):
        with fake_model(shop_suite(), fail_rate=0.5, seed=seed) as server:
            patterns.append(statuses(server.base_url, 12))
    assert patterns[0] == patterns[1] and patterns[0] != patterns[2]
    assert set(patterns[0]) == {200, 500}


def test_latency_delays_every_response() -> None:
    with fake_model(shop_suite(), latency_ms=150) as server:
        started = time.monotonic()
        statuses(server.base_url, 2)
        assert time.monotonic() - started >= 0.3


def test_latency_runs_from_arrival_so_requests_sent_together_are_answered_together() -> None:
    async def answer_times(base_url: str, n: int) -> list[float]:
        async with httpx.AsyncClient(base_url=base_url, timeout=10) as http:
            started = time.monotonic()

            async def one() -> float:
                await http.post("/chat/completions", json={"model": "fake", "messages": OPENING})
                return time.monotonic() - started

            return list(await asyncio.gather(*[one() for _ in range(n)]))

    with fake_model(shop_suite(), latency_ms=300) as server:
        times = asyncio.run(answer_times(server.base_url, 16))
    assert min(times) >= 0.3
    assert max(times) < 0.3 + 0.25, times


def test_jitter_spreads_latencies_within_latency_plus_or_minus_jitter() -> None:
    seen = []
    with (
        fake_model(shop_suite(), latency_ms=100, latency_jitter_ms=60) as server,
        httpx.Client(base_url=server.base_url, timeout=5) as http,
    ):
        for _ in range(12):
            started = time.monotonic()
            http.post("/chat/completions", json={"model": "fake", "messages": OPENING})
            seen.append(time.monotonic() - started)
    assert min(seen) >= 0.04 and max(seen) < 0.16 + 0.1, seen
    assert max(seen) - min(seen) > 0.03, seen  # not all the same


def test_jitter_beyond_the_latency_is_refused() -> None:
    with pytest.raises(ValueError, match="latency_jitter_ms must be between 0 and latency_ms"):
        FakeModelConfig(latency_ms=100, latency_jitter_ms=150)


@pytest.mark.parametrize(
    "body",
    [
        {"model": "fake", "messages": OPENING, "stream": True},
        {"model": "fake", "messages": []},
        {"model": "fake", "messages": OPENING, "seed": "seven"},
    ],
)
def test_unreadable_requests_get_a_400_that_says_why(body: dict[str, Any]) -> None:
    with fake_model(shop_suite()) as server:
        response = post(server.base_url, body)
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith("bad request:")


def test_stats_count_requests_by_role_and_mode() -> None:
    with fake_model(shop_suite(), mode="wrong-value") as server:
        for role in (None, None, "customer", "judge"):
            headers = {"x-statebox-role": role} if role else {}
            body = {"model": "fake", "messages": OPENING}
            assert httpx.post(f"{server.base_url}/chat/completions", json=body, headers=headers).status_code == 200
        stats = server.app.stats.as_dict()
    assert stats["by_role"] == {"agent": 2, "customer": 1, "judge": 1}
    assert stats["by_mode"] == {"wrong-value": 2}


def test_a_config_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="error_rate must be between 0 and 1"):
        FakeModelConfig(mode="flaky", error_rate=1.5)
    with pytest.raises(ValueError, match="unknown mode"):
        FakeModelConfig(mode="sloppy")  # type: ignore[arg-type]
