"""`tb infer` output rows (the official harness's decode results) built for import tests."""

from __future__ import annotations

from typing import Any


def text(role: str, content: str, **metadata: Any) -> dict[str, Any]:
    return {"T": "Text", "role": role, "content": content, "metadata": metadata}


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"T": "ToolCall", "name": name, "arguments": arguments, "id": f"call_{name}", "metadata": {}}


def answer(name: str, content: str = "(recorded)") -> dict[str, Any]:
    return {"T": "ToolResponse", "name": name, "content": content, "id": f"call_{name}", "metadata": {}}


def row(
    file: str, uid: str, query: str, calls: list[dict[str, Any]], passed: bool | None, repetition: int = 0
) -> dict[str, Any]:
    """One attempt: the query, the agent's calls (each answered), its `<DONE>` reply; `passed` None: no result."""
    messages = [text("system", "instructions"), text("user", query), text("assistant", "Let me look.", tag="think")]
    for c in calls:
        messages += [c, answer(c["name"])]
    messages.append(text("assistant", "Your request is complete. <DONE>"))
    result = None if passed is None else {"result": passed, "reward": float(passed), "is_system_error": False}
    return {
        "uid": uid,
        "messages": messages,
        "test_result": result,
        "is_system_error": False,
        "finish_reason": "done",
        "metadata": {"test_case_file": f"/somewhere/dataset/test_case/{file}", "repetition": repetition},
    }
