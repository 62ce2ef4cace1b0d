"""The same retry and error classification for every provider: 429 and 5xx retried (Retry-After
honoured), 401/403/404 a configuration error after one request, a context overflow its own kind."""

from __future__ import annotations

import pytest

from statebox.llm import ConfigurationError, ContextOverflowError, InfrastructureError, Message, RetryPolicy

from .providers_kit import PROVIDERS, Provider, recording

pytestmark = pytest.mark.anyio

HI = [Message(role="user", content="Hi")]
# Each provider's own words for a prompt that does not fit (HTTP 400).
OVERFLOWS = {
    "openai": {"error": {"message": "This model's maximum context length is 128000 tokens.", "type":
               "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}},
    "anthropic": {"type": "error", "error": {"type": "invalid_request_error",
                  "message": "prompt is too long: 211154 tokens > 200000 maximum"}},
    "google": {"error": {"code": 400, "status": "INVALID_ARGUMENT", "message":
               "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)."}},
    "bedrock": {"message": "Input is too long for requested model."},
}  # fmt: skip
OVERFLOWS["azure"] = OVERFLOWS["openai-responses"] = OVERFLOWS["openai"]
IDS = [p.name for p in PROVIDERS]


def refusal(status: int) -> dict:
    return {"error": {"message": f"refused with {status}", "type": "test", "code": None}, "message": f"{status}"}


@pytest.mark.parametrize("status", [401, 403, 404])
@pytest.mark.parametrize("provider", PROVIDERS, ids=IDS)
async def test_a_refused_key_or_model_is_a_configuration_error_after_one_request(provider: Provider, status: int):
    async with recording(provider) as (recorder, port), provider.client(port) as client:
        recorder.reply((status, refusal(status)))
        with pytest.raises(ConfigurationError) as caught:
            await client.complete(HI)

    assert (caught.value.status, caught.value.attempts, len(recorder.requests)) == (status, 1, 1)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("status", [429, 500, 503, 529])
@pytest.mark.parametrize("provider", PROVIDERS, ids=IDS)
async def test_a_busy_or_failing_endpoint_is_retried_then_answers(provider: Provider, status: int):
    async with recording(provider) as (recorder, port), provider.client(port) as client:
        recorder.reply((status, refusal(status)))
        completion = await client.complete(HI)

    assert (completion.text, completion.retries, len(recorder.requests)) == ("ok", 1, 2)


@pytest.mark.parametrize("provider", PROVIDERS, ids=IDS)
async def test_a_prompt_too_long_is_a_context_overflow_not_retried(provider: Provider):
    async with recording(provider) as (recorder, port), provider.client(port) as client:
        recorder.reply((400, OVERFLOWS[provider.name]))
        with pytest.raises(ContextOverflowError):
            await client.complete(HI)

    assert len(recorder.requests) == 1


@pytest.mark.parametrize("provider", PROVIDERS, ids=IDS)
async def test_the_budget_spent_on_5xx_is_one_infrastructure_error_naming_the_spec(provider: Provider):
    retry = RetryPolicy(max_retries=1, base_delay=0.001, max_delay=0.01, timeout_s=10)
    async with recording(provider) as (recorder, port), provider.client(port, retry=retry) as client:
        recorder.reply((503, refusal(503)), (503, refusal(503)))
        with pytest.raises(InfrastructureError) as caught:
            await client.complete(HI)

    assert type(caught.value) is InfrastructureError and caught.value.attempts == 2
    assert provider.spec in str(caught.value) and "HTTP 503" in str(caught.value)


@pytest.mark.parametrize("provider", PROVIDERS, ids=IDS)
async def test_a_429_waits_as_long_as_retry_after_says(provider: Provider):
    retry = RetryPolicy(max_retries=1, base_delay=0.001, max_delay=5, timeout_s=10)
    async with recording(provider) as (recorder, port), provider.client(port, retry=retry) as client:
        recorder.reply((429, refusal(429), {"retry-after": "0.3"}))
        await client.complete(HI)

    gap = recorder.arrivals[1] - recorder.arrivals[0]
    assert 0.3 <= gap < 1.5, f"waited {gap:.3f} s for Retry-After: 0.3"
