"""Model specs: `PROVIDER:MODEL` strings naming a registered provider and its model."""

from __future__ import annotations

from .registry import provider_names


def parse_spec(spec: str) -> tuple[str, str]:
    """Split `PROVIDER:MODEL` at the first colon (the model name may hold colons itself)."""
    provider, sep, model = spec.partition(":")
    known = provider_names()
    if not sep or provider not in known or not model.strip():
        raise ValueError(
            f"bad model spec {spec!r}: expected PROVIDER:MODEL with PROVIDER one of {', '.join(known)}, "
            "e.g. 'openai:gpt-4.1' or 'anthropic:claude-sonnet-4-5'"
        )
    return provider, model
