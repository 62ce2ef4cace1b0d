"""`statebox export --format parquet`: the chat records as typed nested columns that `datasets` loads and a chat
template renders with no decode step."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jinja2
import pytest

from export.conftest import Exports

pa = pytest.importorskip("pyarrow", reason="--format parquet needs the statebox[parquet] extra")
pq = pytest.importorskip("pyarrow.parquet")

# A chat template in the style Hugging Face templates use: tool calls' arguments and tools rendered with `tojson`.
TEMPLATE = (
    "{% for t in tools %}[tool]{{ t.function.name }} {{ t.function.parameters | tojson }}\n{% endfor %}"
    "{% for m in messages %}[{{ m.role }}]{% if m.content %}{{ m.content }}{% endif %}"
    "{% for c in m.tool_calls or [] %}<call>{\"name\": \"{{ c.function.name }}\", \"arguments\": "
    "{{ c.function.arguments | tojson }}}</call>{% endfor %}\n{% endfor %}"
)


def _render(row: dict[str, Any]) -> str:
    env = jinja2.Environment(autoescape=False)
    env.filters["tojson"] = lambda v: json.dumps(v, ensure_ascii=False)
    return env.from_string(TEMPLATE).render(messages=row["messages"], tools=row["tools"])


def test_nested_columns_are_typed_with_json_only_where_values_have_no_single_type(exports: Exports) -> None:
    schema = pq.read_schema(exports.parquet())
    message = schema.field("messages").type.value_type
    function = message.field("tool_calls").type.value_type.field("function").type
    tool = schema.field("tools").type.value_type.field("function").type
    assert isinstance(function.field("arguments").type, pa.JsonType), function
    assert isinstance(tool.field("parameters").type, pa.JsonType), tool
    assert isinstance(schema.field("verdict").type, pa.JsonType)
    assert tool.field("name").type == pa.string() and message.field("role").type == pa.string()


def test_parquet_holds_the_same_records_as_chat_jsonl(exports: Exports) -> None:
    rows = {r["trial_id"]: r for r in pq.read_table(exports.parquet()).to_pylist()}
    for record in exports.lines():
        row = rows[record["trial_id"]]
        assert (row["reward"], row["passed"], row["task_id"]) == (record["reward"], record["verdict"]["passed"],
                                                                  record["task_id"])
        assert json.loads(row["verdict"]) == record["verdict"]
        tools = [{**t, "function": {**t["function"], "parameters": json.loads(t["function"]["parameters"])}}
                 for t in row["tools"]]
        assert tools == record["tools"]
        got = [(m["role"], m["content"], m["tool_call_id"],
                [(c["id"], c["function"]["name"], json.loads(c["function"]["arguments"])) for c in m["tool_calls"]]
                if m["tool_calls"] is not None else None) for m in row["messages"]]
        want = [(m["role"], m.get("content"), m.get("tool_call_id"),
                 [(c["id"], c["function"]["name"], c["function"]["arguments"]) for c in m["tool_calls"]]
                 if "tool_calls" in m else None) for m in record["messages"]]
        assert got == want, record["trial_id"]


def test_arguments_string_gives_a_plain_string_column(exports: Exports) -> None:
    schema = pq.read_schema(exports.parquet("--arguments", "string"))
    function = schema.field("messages").type.value_type.field("tool_calls").type.value_type.field("function").type
    assert function.field("arguments").type == pa.string()


def test_datasets_loads_it_and_a_chat_template_renders_arguments_encoded_once(exports: Exports, tmp_path: Path) -> None:
    datasets = pytest.importorskip("datasets", reason="`datasets` is not installed (pip install datasets)")
    out = exports.parquet()
    data = datasets.load_dataset("parquet", data_files=str(out), split="train", cache_dir=str(tmp_path / "hf"))
    by_id = {r["trial_id"]: r for r in exports.lines()}
    for row in data:
        call = next(c for m in row["messages"] if m["tool_calls"] for c in m["tool_calls"])
        assert isinstance(call["function"]["arguments"], dict), call
        assert isinstance(row["tools"][0]["function"]["parameters"], dict), row["tools"][0]
        assert isinstance(row["verdict"], dict) and row["verdict"]["passed"] == row["passed"]
        text = _render(row)
        assert f'"arguments": {json.dumps(call["function"]["arguments"], ensure_ascii=False)}' in text, text
        assert '"arguments": "{' not in text, "arguments encoded twice"
        record = by_id[row["trial_id"]]
        padded = [{"content": None, "tool_call_id": None, "tool_calls": None, **m} for m in record["messages"]]
        assert text == _render(record | {"messages": padded}), "parquet via datasets renders as chat-jsonl does"


def test_jsonl_objects_render_once_and_strings_twice_in_a_tojson_template(exports: Exports) -> None:
    """Why objects are the default: a template that runs `tojson` on arguments double-encodes a string."""
    record = next(r for r in exports.lines() if any(m.get("tool_calls") for m in r["messages"]))
    wire = next(r for r in exports.lines("--arguments", "string") if r["trial_id"] == record["trial_id"])
    assert '"arguments": {' in _render(record)
    assert '"arguments": "{' in _render(wire)
