"""Each client keeps at most `max_concurrency` requests in flight; clients do not share."""

from __future__ import annotations

import asyncio

import pytest

from statebox.llm import Message, RetryPolicy, make_client

from .fake_endpoints import FakeEndpoint, Scripted, openai_reply

pytestmark = pytest.mark.anyio

HI = [Message(role="user", content="Hi")]


async def test_in_flight_requests_never_exceed_the_limit(endpoint: FakeEndpoint, fast_retry: RetryPolicy):
    endpoint.script(*[Scripted(openai_reply(), delay=0.05)] * 8)

    async with make_client("openai:m", base_url=endpoint.openai_url, retry=fast_retry, max_concurrency=2) as client:
        await asyncio.gather(*(client.complete(HI) for _ in range(8)))

    assert len(endpoint.requests) == 8
    assert endpoint.max_in_flight == 2


async def test_two_clients_have_separate_limits(endpoint: FakeEndpoint, fast_retry: RetryPolicy):
    endpoint.script(*[Scripted(openai_reply(), delay=0.05)] * 4)

    async with (
        make_client("openai:a", base_url=endpoint.openai_url, retry=fast_retry, max_concurrency=1) as first,
        make_client("openai:b", base_url=endpoint.openai_url, retry=fast_retry, max_concurrency=1) as second,
    ):
        await asyncio.gather(first.complete(HI), first.complete(HI), second.complete(HI), second.complete(HI))

    assert endpoint.max_in_flight == 2


def test_a_limit_below_one_is_refused():
    with pytest.raises(ValueError, match="max_concurrency"):
        make_client("openai:m", base_url="http://127.0.0.1:9/v1", max_concurrency=0)
