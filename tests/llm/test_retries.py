"""Retries over real HTTP: what is retried, how long we wait, and when we give up."""

from __future__ import annotations

import pickle
import random
import socket
from datetime import UTC, datetime
from itertools import pairwise
from typing import Any

import pytest

from statebox.llm import InfrastructureError, Message, RetryPolicy, make_client
from statebox.llm.retry import parse_retry_after

from .fake_endpoints import FakeEndpoint, Scripted, anthropic_reply, fail, openai_reply

pytestmark = pytest.mark.anyio

HI = [Message(role="user", content="Hi")]


def openai_client(endpoint: FakeEndpoint, retry: RetryPolicy):
    return make_client("openai:fake-model", base_url=endpoint.openai_url, retry=retry)


def gaps(endpoint: FakeEndpoint) -> list[float]:
    times = [seen.at for seen in endpoint.requests]
    return [later - earlier for earlier, later in pairwise(times)]


async def test_429_waits_as_long_as_retry_after_says(endpoint):
    policy = RetryPolicy(max_retries=1, base_delay=0.01, max_delay=1.0, timeout_s=2)
    endpoint.script(fail(429, headers={"retry-after": "0.2"}), openai_reply("ok"))

    async with openai_client(endpoint, policy) as client:
        completion = await client.complete(HI)

    assert completion.text == "ok" and completion.retries == 1
    [gap] = gaps(endpoint)
    assert 0.2 <= gap < 0.6, f"waited {gap:.3f} s for Retry-After: 0.2"
    assert completion.latency_s >= 0.2


async def test_retry_after_is_capped_by_max_delay(endpoint):
    policy = RetryPolicy(max_retries=1, base_delay=0.01, max_delay=0.1, timeout_s=2)
    endpoint.script(fail(429, headers={"retry-after": "30"}), openai_reply("ok"))

    async with openai_client(endpoint, policy) as client:
        await client.complete(HI)

    [gap] = gaps(endpoint)
    assert gap < 5, f"waited {gap:.3f} s: Retry-After's 30 s was not capped by max_delay (0.1 s)"


async def test_500_then_success_is_retried(endpoint, fast_retry):
    endpoint.script(fail(500), openai_reply("recovered"))

    async with openai_client(endpoint, fast_retry) as client:
        completion = await client.complete(HI)

    assert (completion.text, completion.retries) == ("recovered", 1)
    assert len(endpoint.requests) == 2


async def test_persistent_500_raises_infrastructure_error_after_the_budget(endpoint, fast_retry):
    endpoint.script(*[fail(503)] * 10)

    async with openai_client(endpoint, fast_retry) as client:
        with pytest.raises(InfrastructureError) as caught:
            await client.complete(HI)

    assert len(endpoint.requests) == fast_retry.max_retries + 1
    error = caught.value
    assert (error.provider, error.status, error.attempts) == ("openai", 503, 4)
    assert "scripted 503" in error.message


async def test_persistent_429_on_anthropic_raises_infrastructure_error(endpoint, fast_retry):
    endpoint.script(*[fail(429, headers={"retry-after": "0"})] * 10)

    async with make_client("anthropic:fake-claude", base_url=endpoint.url, api_key="k", retry=fast_retry) as client:
        with pytest.raises(InfrastructureError) as caught:
            await client.complete(HI)

    assert (caught.value.status, caught.value.attempts) == (429, 4)
    assert len(endpoint.requests) == 4


async def test_anthropic_overloaded_then_success_is_retried(endpoint, fast_retry):
    endpoint.script(fail(529), anthropic_reply("fine"))

    async with make_client("anthropic:fake-claude", base_url=endpoint.url, api_key="k", retry=fast_retry) as client:
        completion = await client.complete(HI)

    assert (completion.text, completion.retries) == ("fine", 1)


async def test_timeout_is_retried(endpoint):
    policy = RetryPolicy(max_retries=2, base_delay=0.01, max_delay=0.05, timeout_s=0.1)
    endpoint.script(_slow(openai_reply("late")), openai_reply("on time"))

    async with openai_client(endpoint, policy) as client:
        completion = await client.complete(HI)

    assert (completion.text, completion.retries) == ("on time", 1)


async def test_persistent_timeout_raises_infrastructure_error(endpoint):
    policy = RetryPolicy(max_retries=1, base_delay=0.01, max_delay=0.05, timeout_s=0.1)
    endpoint.script(_slow(openai_reply()), _slow(openai_reply()))

    async with openai_client(endpoint, policy) as client:
        with pytest.raises(InfrastructureError) as caught:
            await client.complete(HI)

    assert (caught.value.status, caught.value.attempts) == (None, 2)
    assert "timed out" in caught.value.message
    assert len(endpoint.requests) == 2


async def test_anthropic_timeout_is_retried_then_raised(endpoint):
    policy = RetryPolicy(max_retries=1, base_delay=0.01, max_delay=0.05, timeout_s=0.1)
    endpoint.script(_slow(anthropic_reply()), _slow(anthropic_reply()))

    async with make_client("anthropic:fake-claude", base_url=endpoint.url, api_key="k", retry=policy) as client:
        with pytest.raises(InfrastructureError) as caught:
            await client.complete(HI)

    assert (caught.value.provider, caught.value.status, caught.value.attempts) == ("anthropic", None, 2)


async def test_a_200_without_choices_is_retried_then_raised(endpoint, fast_retry):
    endpoint.script(*[Scripted({"error": {"message": "upstream failed"}})] * 4)

    async with openai_client(endpoint, fast_retry) as client:
        with pytest.raises(InfrastructureError) as caught:
            await client.complete(HI)

    assert (caught.value.status, caught.value.attempts) == (200, 4)
    assert "no choices" in caught.value.message


@pytest.mark.parametrize("status", [400, 401, 404])
async def test_client_errors_are_raised_at_once_naming_spec_url_and_status(endpoint, fast_retry, status):
    endpoint.script(fail(status))

    async with openai_client(endpoint, fast_retry) as client:
        with pytest.raises(InfrastructureError) as caught:
            await client.complete(HI)

    assert len(endpoint.requests) == 1
    text = str(caught.value)
    assert ("OPENAI_API_KEY" in text) == (status == 401)
    for part in ("openai:fake-model", endpoint.openai_url, f"HTTP {status}", "1 attempt"):
        assert part in text, f"{part!r} missing from: {text}"


async def test_refused_connection_is_retried_then_raised():
    with socket.socket() as sock:  # a port nobody listens on once closed
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    policy = RetryPolicy(max_retries=2, base_delay=0.01, max_delay=0.02, timeout_s=1)

    async with make_client("openai:m", base_url=f"http://127.0.0.1:{port}/v1", retry=policy) as client:
        with pytest.raises(InfrastructureError) as caught:
            await client.complete(HI)

    assert (caught.value.status, caught.value.attempts) == (None, 3)
    assert "connection failed" in caught.value.message


def test_infrastructure_error_survives_pickling():
    error = InfrastructureError(
        provider="openai", spec="openai:m", base_url="http://x/v1", status=503, attempts=6, message="down"
    )

    copy = pickle.loads(pickle.dumps(error))

    assert (str(copy), copy.status, copy.attempts) == (str(error), 503, 6)


def test_retry_after_reads_seconds_and_http_dates():
    now = datetime(2025, 1, 1, 12, 0, 0, tzinfo=UTC)

    assert parse_retry_after("2", now=now) == 2.0
    assert parse_retry_after("Wed, 01 Jan 2025 12:00:05 GMT", now=now) == 5.0
    assert parse_retry_after("Wed, 01 Jan 2025 11:00:00 GMT", now=now) == 0.0
    assert parse_retry_after("soon", now=now) is None
    assert parse_retry_after("nan", now=now) is None


def test_backoff_is_full_jitter_below_an_exponential_ceiling():
    policy = RetryPolicy(base_delay=0.5, max_delay=3.0, rng=random.Random(1))

    delays = [policy.delay(retry, None) for retry in range(8) for _ in range(50)]
    ceilings = [min(3.0, 0.5 * 2**retry) for retry in range(8) for _ in range(50)]

    assert all(0 <= d <= c for d, c in zip(delays, ceilings, strict=True))
    assert max(delays) > 2.0


def _slow(body: dict[str, Any]) -> Scripted:
    """A reply that arrives after the 0.1 s request timeout of these tests."""
    return Scripted(body, delay=0.3)
