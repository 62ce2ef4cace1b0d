"""Chat records as a Parquet file with typed nested columns (needs `pyarrow`, the `statebox[parquet]` extra).

`messages` is a list of structs (role, content, tool_call_id, tool_calls) and `tools` a list of structs
(type, function: name, description, parameters), as chat templates take them. Values with no single
column type — a tool call's `arguments`, a tool's `parameters` (JSON Schema), the `verdict` — are
Arrow's canonical JSON type (`arrow.json`): `datasets` loads that as the decoded object (its `Json`
feature), so `apply_chat_template` gets dicts with no decode step; plain pyarrow reads it as JSON text.
With `--arguments string` a call's `arguments` is a plain string column instead.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from statebox.openenv.chat import Arguments

META = ("schema_version", "trial_id", "suite", "task_id", "domain", "agent", "model", "repeat", "reward")


def write_parquet(records: list[dict[str, Any]], path: Path, arguments: Arguments = "object") -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [_row(r, arguments) for r in records]
    path.parent.mkdir(parents=True, exist_ok=True)
    # pyarrow builds no nested extension values from Python objects: build JSON as text, then cast to arrow.json.
    table = pa.Table.from_pylist(rows, schema=chat_schema(arguments, json_as_text=True))
    pq.write_table(table.cast(chat_schema(arguments)), path)


def chat_schema(arguments: Arguments = "object", *, json_as_text: bool = False) -> Any:
    """The Arrow schema of a chat export (a `pyarrow.Schema`); `json_as_text` gives plain strings for arrow.json."""
    import pyarrow as pa

    json_type = pa.string() if json_as_text else pa.json_()
    args = json_type if arguments == "object" else pa.string()
    call = pa.struct([("id", pa.string()), ("type", pa.string()),
                      ("function", pa.struct([("name", pa.string()), ("arguments", args)]))])
    message = pa.struct([("role", pa.string()), ("content", pa.string()), ("tool_call_id", pa.string()),
                         ("tool_calls", pa.list_(call))])
    tool = pa.struct([("type", pa.string()), ("function", pa.struct([
        ("name", pa.string()), ("description", pa.string()), ("parameters", json_type)]))])
    return pa.schema([
        ("schema_version", pa.int32()), ("trial_id", pa.string()), ("suite", pa.string()), ("task_id", pa.string()),
        ("domain", pa.string()), ("agent", pa.string()), ("model", pa.string()), ("repeat", pa.int32()),
        ("reward", pa.float64()), ("passed", pa.bool_()), ("verdict", json_type), ("messages", pa.list_(message)),
        ("tools", pa.list_(tool)),
    ])


def _row(record: dict[str, Any], arguments: Arguments) -> dict[str, Any]:
    return {
        **{k: record[k] for k in META},
        "passed": record["verdict"]["passed"],
        "verdict": _json(record["verdict"]),
        "messages": [_message(m, arguments) for m in record["messages"]],
        "tools": [{"type": t["type"], "function": {**t["function"], "parameters": _json(t["function"]["parameters"])}}
                  for t in record["tools"]],
    }


def _message(message: dict[str, Any], arguments: Arguments) -> dict[str, Any]:
    calls = message.get("tool_calls")
    if calls is None or arguments == "string":
        return message
    return {**message, "tool_calls": [
        {**c, "function": {**c["function"], "arguments": _json(c["function"]["arguments"])}} for c in calls]}


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)
