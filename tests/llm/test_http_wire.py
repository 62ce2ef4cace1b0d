"""The HTTP layer under both adapters: replies framed every way, connections kept alive and renewed."""

from __future__ import annotations

import asyncio

import pytest

from statebox.llm import InfrastructureError, Message, RetryPolicy, make_client

from .fake_endpoints import FakeEndpoint, Scripted, anthropic_reply, openai_reply

pytestmark = pytest.mark.anyio

HI = [Message(role="user", content="Hi")]


async def test_a_chunked_reply_is_read_whole(endpoint: FakeEndpoint, fast_retry: RetryPolicy):
    endpoint.script(Scripted(openai_reply("a reply sent in seven-byte pieces"), chunked=True))

    async with make_client("openai:m", base_url=endpoint.openai_url, retry=fast_retry) as client:
        completion = await client.complete(HI)

    assert (completion.text, completion.retries) == ("a reply sent in seven-byte pieces", 0)


async def test_a_chunked_anthropic_reply_is_read_whole(endpoint: FakeEndpoint, fast_retry: RetryPolicy):
    endpoint.script(Scripted(anthropic_reply("chunked too"), chunked=True))

    async with make_client("anthropic:c", base_url=endpoint.url, api_key="k", retry=fast_retry) as client:
        completion = await client.complete(HI)

    assert completion.text == "chunked too"


async def test_sequential_calls_reuse_one_connection(endpoint: FakeEndpoint, fast_retry: RetryPolicy):
    async with make_client("openai:m", base_url=endpoint.openai_url, retry=fast_retry) as client:
        for _ in range(5):
            await client.complete(HI)

    assert len({seen.peer for seen in endpoint.requests}) == 1, [seen.peer for seen in endpoint.requests]


async def test_a_connection_the_server_closes_is_replaced_without_a_retry(
    endpoint: FakeEndpoint, fast_retry: RetryPolicy
):
    endpoint.script(Scripted(openai_reply("first"), close=True), openai_reply("second"))

    async with make_client("openai:m", base_url=endpoint.openai_url, retry=fast_retry) as client:
        first = await client.complete(HI)
        second = await client.complete(HI)

    assert [(c.text, c.retries) for c in (first, second)] == [("first", 0), ("second", 0)]
    first_peer, second_peer = (seen.peer for seen in endpoint.requests)
    assert first_peer != second_peer, "the closed connection was not replaced"


async def test_concurrent_calls_open_at_most_one_connection_each(endpoint: FakeEndpoint, fast_retry: RetryPolicy):
    endpoint.script(*[Scripted(openai_reply(), delay=0.05)] * 6)

    async with make_client("openai:m", base_url=endpoint.openai_url, retry=fast_retry, max_concurrency=3) as client:
        await asyncio.gather(*(client.complete(HI) for _ in range(6)))

    assert len({seen.peer for seen in endpoint.requests}) == 3


async def test_a_base_url_with_a_path_prefix_is_kept(endpoint: FakeEndpoint, fast_retry: RetryPolicy):
    async with make_client("openai:m", base_url=endpoint.openai_url + "/", retry=fast_retry) as client:
        await client.complete(HI)

    assert endpoint.requests[0].path == "/v1/chat/completions"


async def test_a_url_nobody_serves_is_a_connection_failure(fast_retry: RetryPolicy):
    policy = RetryPolicy(max_retries=0, timeout_s=1.0)
    async with make_client("openai:m", base_url="http://127.0.0.1:9/v1", retry=policy) as client:
        with pytest.raises(InfrastructureError) as caught:
            await client.complete(HI)

    assert caught.value.status is None and "connection failed" in caught.value.message
