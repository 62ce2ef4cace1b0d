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


def base_url_for(spec: str, base_url: str | None, agent_models: list[str]) -> str | None:
    """Where a run's `--base-url` goes: to every model of the providers its `--model`s name (every
    model when it names none), so an agent on a local server keeps a judge of another provider on
    that provider's own endpoint."""
    if base_url is None:
        return None
    providers = {parse_spec(model)[0] for model in agent_models}
    return base_url if not providers or parse_spec(spec)[0] in providers else None
