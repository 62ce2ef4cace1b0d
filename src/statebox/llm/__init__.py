"""Model clients: one async interface over every provider's API (docs/models.md).

Imports nothing of statebox. `make_client("openai:gpt-4o")` returns a ModelClient whose
`complete` retries failing endpoints, normalises token usage and prices each call. Providers are
found by name in the `statebox.model_providers` entry points (`registry.py`). Requests are plain
JSON over aiohttp (no provider SDK): a body is written once per call from parts encoded once
(tool schemas per PreparedTools, system prompts per client).
"""

from ._transport import HttpOptions
from .client import CallOptions, ModelClient, make_client
from .errors import ConfigurationError, ContextOverflowError, InfrastructureError
from .pricing import ModelPrices, PriceOverrides, cost_usd, price_table_for
from .retry import RetryPolicy
from .spec import base_url_for, parse_spec
from .toolbox import PreparedTools
from .types import Completion, Message, ReasoningBlock, Role, Sampling, ToolCall, ToolDef, Usage

__all__ = [
    "CallOptions",
    "Completion",
    "ConfigurationError",
    "ContextOverflowError",
    "HttpOptions",
    "InfrastructureError",
    "Message",
    "ModelClient",
    "ModelPrices",
    "PreparedTools",
    "PriceOverrides",
    "ReasoningBlock",
    "RetryPolicy",
    "Role",
    "Sampling",
    "ToolCall",
    "ToolDef",
    "Usage",
    "base_url_for",
    "cost_usd",
    "make_client",
    "parse_spec",
    "price_table_for",
]
