"""Cost per call: user overrides win, the genai-prices catalogue fills in, unknown is None."""

from __future__ import annotations

from pathlib import Path

import pytest

from statebox.llm import (
    Message,
    ModelPrices,
    PriceOverrides,
    RetryPolicy,
    Usage,
    cost_usd,
    make_client,
    price_table_for,
)

from .fake_endpoints import FakeEndpoint, anthropic_reply, openai_reply

HI = [Message(role="user", content="Hi")]
MILLION_EACH = Usage(input=1_000_000, cached_input=1_000_000, cache_write=1_000_000, output=1_000_000)
OVERRIDE_YAML = """\
openai:gpt-4o:
  input_per_mtok: 1.0
  cached_input_per_mtok: 0.5
  output_per_mtok: 4.0
"""


@pytest.fixture
def overrides(tmp_path: Path) -> PriceOverrides:
    path = tmp_path / "prices.yaml"
    path.write_text(OVERRIDE_YAML)
    return PriceOverrides.from_yaml(path)


def test_override_wins_over_the_catalogue(overrides):
    # cache writes default to the input price when the override omits them
    assert cost_usd("openai:gpt-4o", MILLION_EACH, overrides) == pytest.approx(1 + 0.5 + 1 + 4)
    assert price_table_for("openai:gpt-4o", overrides) == {
        "source": "override",
        "input_per_mtok": 1.0,
        "cached_input_per_mtok": 0.5,
        "cache_write_per_mtok": 1.0,
        "output_per_mtok": 4.0,
    }


def test_catalogue_prices_known_models_with_uncached_input_at_full_rate():
    table = price_table_for("openai:gpt-4o")
    assert table is not None and table["source"] == "genai-prices"
    usage = Usage(input=1_000_000, cached_input=1_000_000, output=1_000_000)

    expected = table["input_per_mtok"] + table["cached_input_per_mtok"] + table["output_per_mtok"]
    assert cost_usd("openai:gpt-4o", usage) == pytest.approx(expected)


def test_unknown_model_has_no_cost_and_no_table():
    assert cost_usd("openai:surely-not-a-real-model", MILLION_EACH) is None
    assert price_table_for("openai:surely-not-a-real-model") is None


def test_override_file_with_a_bad_spec_is_refused(tmp_path):
    path = tmp_path / "prices.yaml"
    path.write_text("gpt-4o:\n  input_per_mtok: 1\n  output_per_mtok: 2\n")

    with pytest.raises(ValueError, match="bad model spec 'gpt-4o'"):
        PriceOverrides.from_yaml(path)


@pytest.mark.anyio
async def test_completion_carries_the_cost_of_its_usage(endpoint: FakeEndpoint, fast_retry: RetryPolicy):
    prices = PriceOverrides({"openai:my-model": ModelPrices(input_per_mtok=2.0, output_per_mtok=8.0)})
    endpoint.script(openai_reply(usage={"prompt_tokens": 1000, "completion_tokens": 500}), openai_reply())

    async with (
        make_client("openai:my-model", base_url=endpoint.openai_url, retry=fast_retry, prices=prices) as priced,
        make_client("openai:unpriced", base_url=endpoint.openai_url, retry=fast_retry) as unpriced,
    ):
        assert (await priced.complete(HI)).cost_usd == pytest.approx(0.002 + 0.004)
        assert (await unpriced.complete(HI)).cost_usd is None
        assert priced.price_table() == {"source": "override", **prices.root["openai:my-model"].table()}


@pytest.mark.anyio
@pytest.mark.parametrize("spec", ["openai:gpt-4o", "anthropic:claude-sonnet-4-5"])
async def test_a_catalogue_priced_completion_costs_what_cost_usd_says(
    endpoint: FakeEndpoint, fast_retry: RetryPolicy, spec: str
):
    if spec.startswith("openai:"):
        usage = {"prompt_tokens": 12_000, "completion_tokens": 900, "prompt_tokens_details": {"cached_tokens": 8_000}}
        endpoint.script(openai_reply(usage=usage))
        client = make_client(spec, base_url=endpoint.openai_url, retry=fast_retry)
    else:
        usage = {"input_tokens": 3_000, "cache_read_input_tokens": 8_000, "output_tokens": 900}
        endpoint.script(anthropic_reply(usage=usage))
        client = make_client(spec, base_url=endpoint.url, api_key="k", retry=fast_retry)

    async with client:
        completion = await client.complete(HI)

    expected = cost_usd(spec, completion.usage)
    assert expected is not None and expected > 0
    assert completion.cost_usd == pytest.approx(expected)


@pytest.mark.parametrize(
    "spec",
    [
        "openai:gpt-4.1-mini",
        "openai-responses:o4-mini",
        "azure:gpt-4o",
        "anthropic:claude-sonnet-4-5",
        "google:gemini-2.5-pro",  # priced in tiers above 200k prompt tokens
        "google:gemini-2.5-flash",
        "bedrock:anthropic.claude-3-5-sonnet-20240620-v1:0",
    ],
)
@pytest.mark.parametrize(
    "usage",
    [Usage(), Usage(input=1200, output=80), Usage(input=150, cached_input=9000, cache_write=400, output=700,
     reasoning=300), Usage(input=250_000, cached_input=30_000, output=12_000)],
)  # fmt: skip
def test_a_clients_cost_is_genai_prices_own_for_every_provider(spec: str, usage: Usage):
    from statebox.llm.pricing import Pricer

    catalogue = cost_usd(spec, usage)

    assert catalogue is not None, f"genai-prices has no price for {spec}"
    assert Pricer(spec).cost(usage) == pytest.approx(catalogue, rel=1e-12, abs=1e-15)
