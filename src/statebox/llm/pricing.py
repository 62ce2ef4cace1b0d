"""Cost of a call in USD: user overrides first, then the genai-prices catalogue."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from pydantic import BaseModel, ConfigDict, RootModel, field_validator

from .spec import parse_spec
from .types import Usage

if TYPE_CHECKING:  # genai-prices' catalogue (~40 ms to import) loads with the first price asked for
    import genai_prices
    from genai_prices.types import ModelInfo, PriceCalculation, Provider

PRICE_FIELDS = ("input_per_mtok", "cached_input_per_mtok", "cache_write_per_mtok", "output_per_mtok")
_KINDS = ("input", "cached_input", "cache_write", "output")  # Usage's fields, in PRICE_FIELDS' order


class ModelPrices(BaseModel):
    """USD per million tokens; cache prices default to the input price when omitted."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    input_per_mtok: float
    output_per_mtok: float
    cached_input_per_mtok: float | None = None
    cache_write_per_mtok: float | None = None

    def table(self) -> dict[str, float]:
        """The four prices, defaults filled in, keyed as in the override file."""
        cached = self.cached_input_per_mtok
        write = self.cache_write_per_mtok
        return {
            "input_per_mtok": self.input_per_mtok,
            "cached_input_per_mtok": self.input_per_mtok if cached is None else cached,
            "cache_write_per_mtok": self.input_per_mtok if write is None else write,
            "output_per_mtok": self.output_per_mtok,
        }

    def cost(self, usage: Usage) -> float:
        prices = self.table()
        total = (
            usage.input * prices["input_per_mtok"]
            + usage.cached_input * prices["cached_input_per_mtok"]
            + usage.cache_write * prices["cache_write_per_mtok"]
            + usage.output * prices["output_per_mtok"]
        )
        return total / 1_000_000


class PriceOverrides(RootModel[dict[str, ModelPrices]]):
    """User prices by model spec, e.g. `{"openai:my-model": {"input_per_mtok": 0.1, ...}}`."""

    @field_validator("root")
    @classmethod
    def _keys_are_specs(cls, value: dict[str, ModelPrices]) -> dict[str, ModelPrices]:
        for spec in value:
            parse_spec(spec)
        return value

    @classmethod
    def from_yaml(cls, path: str | Path) -> PriceOverrides:
        """Load an override file (YAML or JSON); an empty file means no overrides."""
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
        return cls.model_validate(data)

    def get(self, spec: str) -> ModelPrices | None:
        return self.root.get(spec)


def cost_usd(spec: str, usage: Usage, overrides: PriceOverrides | None = None) -> float | None:
    """Cost of `usage` on `spec`, or None when the model has no known price."""
    override = overrides.get(spec) if overrides else None
    if override is not None:
        return override.cost(usage)
    calc = _catalogue_price(spec, usage, None)
    return None if calc is None else float(calc.total_price)


class Pricer:
    """`cost_usd` for one spec, with the catalogue's model looked up once, not on every call.

    A catalogue price that is four flat per-token rates (no tiers, no price per request) is read
    from genai-prices once a day and applied directly: its calculation costs about as much CPU as
    a model call's HTTP round trip. The rates are genai-prices' own answers for unit usages,
    checked on a mixed usage, so both ways give the same cost.
    """

    def __init__(self, spec: str, overrides: PriceOverrides | None = None, price_provider: str | None = None) -> None:
        self._override = overrides.get(spec) if overrides else None
        self._catalogue: tuple[Provider, ModelInfo] | None = None
        if self._override is None:
            provider, model = _catalogue_names(spec, price_provider)
            from genai_prices.data_snapshot import get_snapshot

            try:
                self._catalogue = get_snapshot().find_provider_model(model, None, provider, None)
            except LookupError:
                self._catalogue = None
        self._flat: tuple[date, ModelPrices | None] | None = None  # (the day they hold for, the rates)

    def cost(self, usage: Usage) -> float | None:
        """The same as `cost_usd(spec, usage, overrides)`."""
        if self._override is not None:
            return self._override.cost(usage)
        if self._catalogue is None:
            return None
        now = datetime.now(UTC)
        if self._flat is None or self._flat[0] != now.date():
            self._flat = (now.date(), self._flat_rates(now))
        flat = self._flat[1]
        return flat.cost(usage) if flat is not None else self._catalogue_cost(usage, now)

    def _catalogue_cost(self, usage: Usage, now: datetime) -> float:
        assert self._catalogue is not None
        provider, model = self._catalogue
        return float(model.calc_price(_catalogue_usage(usage), provider, genai_request_timestamp=now).total_price)

    def _flat_rates(self, now: datetime) -> ModelPrices | None:
        """The four rates, when the catalogue's price today is just that; else None."""
        assert self._catalogue is not None
        price = self._catalogue[1].get_prices(now)
        parts = (price.input_mtok, price.cache_read_mtok, price.cache_write_mtok, price.output_mtok)
        if not all(p is None or isinstance(p, Decimal) for p in parts) or self._catalogue_cost(Usage(), now):
            return None
        unit = 1000
        rates = [self._catalogue_cost(Usage(**{kind: unit}), now) * 1_000_000 / unit for kind in _KINDS]
        flat = ModelPrices(
            input_per_mtok=rates[0],
            cached_input_per_mtok=rates[1],
            cache_write_per_mtok=rates[2],
            output_per_mtok=rates[3],
        )
        probe = Usage(input=3001, cached_input=1234, cache_write=77, output=911)
        return flat if abs(flat.cost(probe) - self._catalogue_cost(probe, now)) < 1e-12 else None


def price_table_for(
    spec: str, overrides: PriceOverrides | None = None, price_provider: str | None = None
) -> dict[str, Any] | None:
    """The prices `cost_usd` uses for `spec` (for the run manifest), or None if unknown.

    Keys: `source` ("override" or "genai-prices") and the four `*_per_mtok` prices; a
    catalogue model priced in tiers also gets `tiers`: {price key: [{start, per_mtok}]}.
    """
    override = overrides.get(spec) if overrides else None
    if override is not None:
        return {"source": "override", **override.table()}
    calc = _catalogue_price(spec, Usage(), price_provider)
    if calc is None:
        return None
    price = calc.model_price
    catalogue = {
        "input_per_mtok": price.input_mtok,
        "cached_input_per_mtok": _first_set(price.cache_read_mtok, price.input_mtok),
        "cache_write_per_mtok": _first_set(price.cache_write_mtok, price.input_mtok),
        "output_per_mtok": price.output_mtok,
    }
    table: dict[str, Any] = {"source": "genai-prices"}
    tiers: dict[str, list[dict[str, float]]] = {}
    for key, value in catalogue.items():
        table[key] = _base_price(value)
        if value is not None and not isinstance(value, Decimal):
            tiers[key] = [{"start": t.start, "per_mtok": float(t.price)} for t in value.tiers]
    if tiers:
        table["tiers"] = tiers
    return table


def _first_set(value: Any, default: Any) -> Any:
    return default if value is None else value


def _base_price(value: Any) -> float:
    if value is None:
        return 0.0
    return float(value if isinstance(value, Decimal) else value.base)


def _catalogue_names(spec: str, price_provider: str | None) -> tuple[str, str]:
    """(genai-prices provider id, model) for a spec; the provider class names its catalogue id."""
    provider, model = parse_spec(spec)
    if price_provider is None:
        from .registry import provider_class

        price_provider = provider_class(provider).price_provider
    return price_provider, model


def _catalogue_price(spec: str, usage: Usage, price_provider: str | None) -> PriceCalculation | None:
    """genai-prices' calculation for `spec`, or None when the catalogue lacks the model."""
    import genai_prices

    provider, model = _catalogue_names(spec, price_provider)
    try:
        return genai_prices.calc_price(_catalogue_usage(usage), model, provider_id=provider)
    except LookupError:
        return None


def _catalogue_usage(usage: Usage) -> genai_prices.Usage:
    import genai_prices

    return genai_prices.Usage(
        input_tokens=usage.input + usage.cached_input + usage.cache_write,
        cache_read_tokens=usage.cached_input,
        cache_write_tokens=usage.cache_write,
        output_tokens=usage.output,
    )
