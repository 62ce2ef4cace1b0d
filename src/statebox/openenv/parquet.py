"""Chat records as a Parquet file (needs the optional `pyarrow`, the `statebox[parquet]` extra).

`messages` is a native list of structs (role, content, tool_call_id, tool_calls), as chat datasets
load it; `tools` and `verdict` are JSON text, since their values (discrepancies' expected and actual
values, JSON Schemas) have no single column type.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def write_parquet(records: list[dict[str, Any]], path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    call = pa.struct([("id", pa.string()), ("type", pa.string()),
                      ("function", pa.struct([("name", pa.string()), ("arguments", pa.string())]))])
    message = pa.struct([("role", pa.string()), ("content", pa.string()), ("tool_call_id", pa.string()),
                         ("tool_calls", pa.list_(call))])
    schema = pa.schema([
        ("schema_version", pa.int32()), ("trial_id", pa.string()), ("suite", pa.string()), ("task_id", pa.string()),
        ("domain", pa.string()), ("agent", pa.string()), ("model", pa.string()), ("repeat", pa.int32()),
        ("reward", pa.float64()), ("passed", pa.bool_()), ("verdict", pa.string()), ("messages", pa.list_(message)),
        ("tools", pa.string()),
    ])
    rows = [
        {**{k: r[k] for k in ("schema_version", "trial_id", "suite", "task_id", "domain", "agent", "model", "repeat",
                              "reward", "messages")},
         "passed": r["verdict"]["passed"],
         "verdict": json.dumps(r["verdict"], ensure_ascii=False, default=str),
         "tools": json.dumps(r["tools"], ensure_ascii=False)}
        for r in records
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path)
