"""What a refused request means: retried, a configuration error that stops a run, or a context overflow.

Every error body here is the shape the provider (or an OpenAI-compatible server) really sends.
"""

from __future__ import annotations

import pytest

from statebox.llm import (
    ConfigurationError,
    ContextOverflowError,
    InfrastructureError,
    Message,
    RetryPolicy,
    make_client,
)

from .fake_endpoints import FakeEndpoint, Scripted, anthropic_reply, fail, openai_reply

pytestmark = pytest.mark.anyio

HI = [Message(role="user", content="Hi")]

OPENAI_OVERFLOW = {
    "error": {
        "message": "This model's maximum context length is 128000 tokens. However, your messages resulted in "
        "131072 tokens. Please reduce the length of the messages.",
        "type": "invalid_request_error",
        "param": "messages",
        "code": "context_length_exceeded",
    }
}
VLLM_OVERFLOW = {
    "object": "error",
    "message": "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens "
    "(4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
    "type": "BadRequestError",
    "param": None,
    "code": 400,
}
ANTHROPIC_OVERFLOW = {
    "type": "error",
    "error": {"type": "invalid_request_error", "message": "prompt is too long: 211154 tokens > 200000 maximum"},
}
ANTHROPIC_NO_MODEL = {"type": "error", "error": {"type": "not_found_error", "message": "model: claude-nope"}}


def client(endpoint: FakeEndpoint, provider: str, retry: RetryPolicy):
    if provider == "openai":
        return make_client("openai:m", base_url=endpoint.openai_url, retry=retry)
    return make_client("anthropic:m", base_url=endpoint.url, api_key="k", retry=retry)


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize("status", [401, 403, 404])
async def test_auth_and_not_found_are_configuration_errors_after_one_request(
    endpoint: FakeEndpoint, fast_retry: RetryPolicy, provider: str, status: int
):
    endpoint.script(fail(status))

    async with client(endpoint, provider, fast_retry) as model:
        with pytest.raises(ConfigurationError) as caught:
            await model.complete(HI)

    assert len(endpoint.requests) == 1
    assert (caught.value.status, caught.value.attempts) == (status, 1)
    assert f"scripted {status}" in str(caught.value)


async def test_an_unknown_anthropic_model_names_itself(endpoint: FakeEndpoint, fast_retry: RetryPolicy):
    endpoint.script(Scripted(ANTHROPIC_NO_MODEL, status=404))

    async with client(endpoint, "anthropic", fast_retry) as model:
        with pytest.raises(ConfigurationError, match="model: claude-nope"):
            await model.complete(HI)


@pytest.mark.parametrize(
    "provider, body",
    [("openai", OPENAI_OVERFLOW), ("openai", VLLM_OVERFLOW), ("anthropic", ANTHROPIC_OVERFLOW)],
    ids=["openai", "vllm", "anthropic"],
)
async def test_a_context_overflow_is_recognised_and_not_retried(
    endpoint: FakeEndpoint, fast_retry: RetryPolicy, provider: str, body: dict
):
    endpoint.script(Scripted(body, status=400))

    async with client(endpoint, provider, fast_retry) as model:
        with pytest.raises(ContextOverflowError) as caught:
            await model.complete(HI)

    assert len(endpoint.requests) == 1
    assert caught.value.status == 400 and "\n" not in str(caught.value)


async def test_another_400_is_an_endpoint_error_of_no_particular_kind(endpoint: FakeEndpoint, fast_retry: RetryPolicy):
    endpoint.script(fail(400))

    async with client(endpoint, "openai", fast_retry) as model:
        with pytest.raises(InfrastructureError) as caught:
            await model.complete(HI)

    assert type(caught.value) is InfrastructureError
    assert len(endpoint.requests) == 1


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize("raw", [b"<html>502 Bad Gateway</html>", b"", b"   ", b'["not", "an", "object"]'])
async def test_a_200_that_is_not_a_json_object_is_retried_then_one_line(
    endpoint: FakeEndpoint, fast_retry: RetryPolicy, provider: str, raw: bytes
):
    endpoint.script(*[Scripted(raw=raw)] * 4)

    async with client(endpoint, provider, fast_retry) as model:
        with pytest.raises(InfrastructureError) as caught:
            await model.complete(HI)

    error = caught.value
    assert (error.status, error.attempts) == (200, fast_retry.max_retries + 1)
    assert "\n" not in str(error) and "Traceback" not in str(error)
    assert "empty" in error.message if not raw.strip() else "not" in error.message


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_a_200_that_is_not_json_then_a_reply_recovers(
    endpoint: FakeEndpoint, fast_retry: RetryPolicy, provider: str
):
    good = openai_reply("fine") if provider == "openai" else anthropic_reply("fine")
    endpoint.script(Scripted(raw=b"upstream timeout"), Scripted(raw=b""), good)

    async with client(endpoint, provider, fast_retry) as model:
        completion = await model.complete(HI)

    assert (completion.text, completion.retries) == ("fine", 2)


def test_anthropic_without_a_key_is_refused_before_any_request(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)

    with pytest.raises(ValueError, match="anthropic:claude-sonnet-4-5 needs an API key: set ANTHROPIC_API_KEY"):
        make_client("anthropic:claude-sonnet-4-5")


def test_openai_without_a_key_or_base_url_is_refused(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)

    with pytest.raises(ValueError, match=r"OPENAI_API_KEY .*--base-url"):
        make_client("openai:gpt-4o")
