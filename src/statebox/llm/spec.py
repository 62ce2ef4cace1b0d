"""Model specs: `PROVIDER:MODEL` strings naming a provider and its model."""

from __future__ import annotations

PROVIDERS = ("openai", "anthropic")


def parse_spec(spec: str) -> tuple[str, str]:
    """Split `openai:MODEL` or `anthropic:MODEL`; the model name may itself hold colons."""
    provider, sep, model = spec.partition(":")
    if not sep or provider not in PROVIDERS or not model.strip():
        forms = " or ".join(f"'{name}:MODEL'" for name in PROVIDERS)
        raise ValueError(f"bad model spec {spec!r}: expected {forms}, e.g. 'openai:gpt-4o'")
    return provider, model
