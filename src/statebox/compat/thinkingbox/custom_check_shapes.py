"""What a ThinkingBox-Bench custom check gets as `x`, in the shapes the benchmark's harness gives:
a module for the sandbox (standard library only, loaded beside `custom_check_sandbox.py`, never
by statebox).

`x.response` (the last assistant text), `x.tool_direct_responses`, `x.effects` (per server),
`x.tool_calls` (each `.tool_call` with `.name`, `.arguments`, `.id`, and its `.tool_response` with
`.name`, `.content`, `.id`), `x.messages` (`Text` with `.role`, `.content`, `.tag`;
`ParallelToolCall` with `.tool_calls`; `ToolResponse`), `x.init_result`, `x.session_id`,
`x.metadata`, `x.transcript(limit)` and `x.query()`. The JSON they are read from is each message's
fields with its type under `"T"` (`custom_check_context` in statebox writes it).
"""

from __future__ import annotations

from typing import Any

NO_SESSION = "00000000-0000-0000-0000-000000000000"


class Message:
    """A message of the conversation: its type name and free metadata."""

    T = "Message"

    def __init__(self, metadata: dict[str, Any] | None = None) -> None:
        self.metadata = dict(metadata or {})

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({fields})"


class Text(Message):
    T = "Text"

    def __init__(self, role: str, content: str, metadata: dict[str, Any] | None = None) -> None:
        super().__init__(metadata)
        self.role, self.content = role, content

    @property
    def tag(self) -> str:
        """`text` (to the user), `think` (hidden reasoning) or `direct` (a tool's text, shown as said)."""
        return str(self.metadata.get("tag", "text"))

    @property
    def is_visible(self) -> bool:
        return self.tag != "think"


class ToolCall(Message):
    T = "ToolCall"

    def __init__(self, name: str, arguments: dict[str, Any], id: str, metadata: dict[str, Any] | None = None) -> None:
        super().__init__(metadata)
        self.name, self.arguments, self.id = name, arguments, id


class ParallelToolCall(Message):
    T = "ParallelToolCall"

    def __init__(self, tool_calls: list[ToolCall], metadata: dict[str, Any] | None = None) -> None:
        super().__init__(metadata)
        self.tool_calls = tool_calls


class ToolResponse(Message):
    T = "ToolResponse"

    def __init__(self, name: str, content: str, id: str, metadata: dict[str, Any] | None = None) -> None:
        super().__init__(metadata)
        self.name, self.content, self.id = name, content, id


class ToolCallResponse:
    """One tool call with the response it got."""

    def __init__(self, tool_call: ToolCall, tool_response: ToolResponse) -> None:
        self.tool_call, self.tool_response = tool_call, tool_response

    def __repr__(self) -> str:
        return f"ToolCallResponse(tool_call={self.tool_call!r}, tool_response={self.tool_response!r})"


def _tool_call(data: dict[str, Any]) -> ToolCall:
    return ToolCall(str(data.get("name", "")), dict(data.get("arguments") or {}), str(data.get("id", "")),
                    data.get("metadata"))  # fmt: skip


def _tool_response(data: dict[str, Any]) -> ToolResponse:
    return ToolResponse(str(data.get("name", "")), str(data.get("content", "")), str(data.get("id", "")),
                        data.get("metadata"))  # fmt: skip


def _call_response(data: dict[str, Any]) -> ToolCallResponse:
    return ToolCallResponse(_tool_call(data.get("tool_call") or {}), _tool_response(data.get("tool_response") or {}))


def message_from_json(data: dict[str, Any]) -> Message:
    kind = data.get("T")
    if kind == "Text":
        return Text(str(data.get("role", "assistant")), str(data.get("content", "")), data.get("metadata"))
    if kind == "ToolCall":
        return _tool_call(data)
    if kind == "ParallelToolCall":
        return ParallelToolCall([_tool_call(c) for c in data.get("tool_calls") or []], data.get("metadata"))
    if kind == "ToolResponse":
        return _tool_response(data)
    raise ValueError(f"unknown message type {kind!r}")


class TestContext:
    """The `x` of a check."""

    __test__ = False  # not a test class, should pytest ever see it

    def __init__(self) -> None:
        self.response = ""
        self.tool_direct_responses: list[str] = []
        self.effects: dict[str, Any] = {}
        self.tool_calls: list[ToolCallResponse] = []
        self.messages: list[Message] = []
        self.init_result: dict[str, Any] = {}
        self.session_id = NO_SESSION
        self.metadata: dict[str, Any] = {}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TestContext:
        x = cls()
        x.response = str(data.get("response", ""))
        x.tool_direct_responses = [str(t) for t in data.get("tool_direct_responses") or []]
        x.effects = dict(data.get("effects") or {})
        x.tool_calls = [_call_response(c) for c in data.get("tool_calls") or []]
        x.messages = [message_from_json(m) for m in data.get("messages") or []]
        x.init_result = dict(data.get("init_result") or {})
        x.session_id = str(data.get("session_id") or NO_SESSION)
        return x

    def _said(self) -> list[Text]:
        """The user's and the assistant's visible text messages (placeholders for empty replies left out)."""
        return [m for m in self.messages if isinstance(m, Text) and m.role in ("user", "assistant")
                and m.is_visible and not m.metadata.get("is_dummy")]  # fmt: skip

    def transcript(self, limit: int = 0) -> str:
        """The conversation as `User: ...` / `Assistant: ...` paragraphs; `limit` > 0 keeps the tail
        from the limit-th last assistant message on."""
        if limit < 0:
            raise ValueError("limit must be >= 0")
        said = self._said()
        if limit:
            assistant = [i for i, m in enumerate(said) if m.role == "assistant"]
            said = said[assistant[-limit] :] if len(assistant) >= limit else said
        return "\n\n".join(f"{'Assistant' if m.role == 'assistant' else 'User'}: {m.content}" for m in said)

    def query(self) -> str:
        """The user's first message."""
        for m in self.messages:
            if isinstance(m, Text) and m.role == "user" and not m.metadata.get("is_dummy") and m.tag != "think":
                return m.content
        raise ValueError("No user message found in messages")
