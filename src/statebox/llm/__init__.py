"""Model clients: one async interface over OpenAI-compatible and Anthropic endpoints.

Imports nothing of statebox. `make_client("openai:gpt-4o")` returns a ModelClient whose
`complete` retries failing endpoints, normalises token usage and prices each call.
"""

from .client import ModelClient, make_client
from .errors import InfrastructureError
from .pricing import ModelPrices, PriceOverrides, cost_usd, price_table_for
from .retry import RetryPolicy
from .spec import parse_spec
from .types import Completion, Message, Role, Sampling, ToolCall, ToolDef, Usage

__all__ = [
    "Completion",
    "InfrastructureError",
    "Message",
    "ModelClient",
    "ModelPrices",
    "PriceOverrides",
    "RetryPolicy",
    "Role",
    "Sampling",
    "ToolCall",
    "ToolDef",
    "Usage",
    "cost_usd",
    "make_client",
    "parse_spec",
    "price_table_for",
]
