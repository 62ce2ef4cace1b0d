"""A dict-backed stand-in for a real attempt, enough to exercise every MCP transport."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from statebox.tools.surface import ToolOutcome, ToolSpec

PUT = ToolSpec(
    name="put",
    description="Store a value under a key.",
    input_schema={
        "type": "object",
        "properties": {
            "key": {"type": "string", "description": "Where to store it."},
            "value": {"type": "string"},
            "ttl": {"type": "integer", "minimum": 0},
        },
        "required": ["key", "value"],
        "additionalProperties": False,
    },
    writes=True,
)
GET = ToolSpec(
    name="get",
    description="Read the value stored under a key.",
    input_schema={
        "type": "object",
        "properties": {"key": {"type": "string"}},
        "required": ["key"],
    },
)
SUITES = {"fake": {"one", "two"}}


class DictSurface:
    """Two tools over a dict: `put(key, value)` writes, `get(key)` reads."""

    def __init__(self) -> None:
        self.store: dict[str, str] = {}

    def list_tools(self) -> list[ToolSpec]:
        return [PUT, GET]

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        key = arguments["key"]
        if name == "put":
            self.store[key] = arguments["value"]
            return ToolOutcome(text=f"stored {key}", data={"key": key})
        if key not in self.store:
            return ToolOutcome(text=f"no value under {key!r}", is_error=True, error_kind="not_found")
        return ToolOutcome(text=self.store[key], data={"key": key, "value": self.store[key]})


@dataclass
class FakeAttempt:
    """A `HostedAttempt` whose effects are whatever was written through `put`."""

    id: str = "fake-one"
    surface: DictSurface = field(default_factory=DictSurface)
    policy: str = "# Policy\nBe nice."
    opening_message: str = "Hello, I need help."
    closed: bool = False

    def status(self) -> dict[str, Any]:
        return {"task": self.id, "writes": len(self.surface.store), "closed": self.closed}

    def result(self) -> dict[str, Any]:
        effects = dict(self.surface.store)
        return {"effects": effects, "verdict": {"passed": bool(effects), "discrepancies": []}}

    async def close(self) -> None:
        self.closed = True


class FakeFactory:
    """An `AttemptFactory` that remembers every attempt it made."""

    def __init__(self) -> None:
        self.made: list[FakeAttempt] = []

    async def __call__(self, suite: str, task: str, user: str | None) -> FakeAttempt:
        if suite not in SUITES:
            raise LookupError(f"unknown suite {suite!r}; known: {', '.join(SUITES)}")
        if task not in SUITES[suite]:
            raise LookupError(f"unknown task {task!r} in suite {suite!r}")
        if user not in (None, "scripted", "llm"):
            raise ValueError(f"user must be 'scripted', 'llm' or null, not {user!r}")
        attempt = FakeAttempt(id=f"{suite}-{task}-{len(self.made)}")
        self.made.append(attempt)
        return attempt
