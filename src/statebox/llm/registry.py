"""Model providers: the classes behind `PROVIDER:MODEL`, found by name under an entry-point group.

statebox registers its own (openai, openai-responses, azure, anthropic, google, bedrock) in
`pyproject.toml`; a package may add more under the same group. A provider's module is imported
when a client for it is first made, so naming providers costs no import.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._endpoint import EndpointClient

ENTRY_POINT_GROUP = "statebox.model_providers"


def _registered() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def provider_names() -> list[str]:
    """Every registered provider's name, sorted."""
    return sorted(_registered())


def provider_class(name: str) -> type[EndpointClient]:
    """The client class registered as `name` (ValueError naming the known ones if none is)."""
    found = _registered().get(name)
    if found is None:
        raise ValueError(f"no model provider {name!r}; known: {', '.join(provider_names())}")
    loaded = found.load()
    from ._endpoint import EndpointClient

    if not (isinstance(loaded, type) and issubclass(loaded, EndpointClient)):
        raise TypeError(f"the model provider {name!r} ({found.value}) is not an EndpointClient subclass")
    return loaded
