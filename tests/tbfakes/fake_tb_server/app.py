"""A fake ThinkingBox-style tool server: the reserved-tool protocol over MCP stdio, a tiny shop.

Like the published servers it keeps its live database in module globals (a second init in the
same process does not reset it), lists the reserved tools next to the domain tools, and
reports tool failures as `{"error": ...}` text results. Knobs (environment):
FAKE_TB_IMPORT_DELAY_S / FAKE_TB_IMPORT_CPU_S make importing this module sleep / burn CPU,
like the real servers' 1-2 s import; FAKE_TB_SERVER_NAME names the server.
"""

from __future__ import annotations

import copy
import datetime
import hashlib
import json
import os
import time
from collections.abc import Callable
from typing import Any

import anyio
import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server


def _pay_import_cost() -> None:
    time.sleep(float(os.environ.get("FAKE_TB_IMPORT_DELAY_S") or 0))
    deadline = time.perf_counter() + float(os.environ.get("FAKE_TB_IMPORT_CPU_S") or 0)
    while time.perf_counter() < deadline:
        pass


_pay_import_cost()

SERVER_NAME = os.environ.get("FAKE_TB_SERVER_NAME", "fake_tb")
Row = dict[str, Any]
Db = dict[str, list[Row]]

SEED: Db = {
    "customers": [
        {"id": "CUS-1", "name": "Ada Park", "email": "ada@example.com", "tier": "vip"},
        {"id": "CUS-2", "name": "Ben Ode", "email": "ben@example.com", "tier": "standard"},
    ],
    "orders": [
        {"id": "ORD-1", "customer_id": "CUS-1", "status": "processing", "shipping_speed": "standard", "total": 120.0},
    ],
    "products": [
        {"id": "PRD-1", "name": "Kettle", "warranty_until": "2025-12-31"},
        {"id": "PRD-2", "name": "Toaster", "warranty_until": "2025-06-30"},
    ],
    "tickets": [],
    "escalations": [],
}

# The live state of this process, exactly like the real servers keep it.
DB: Db = copy.deepcopy(SEED)
INITIAL: Db | None = None
CONFIG: dict[str, Any] = {}


class ToolFailure(Exception):
    """A tool refused the call; the agent sees {"error": message}."""


def _find(db: Db, table: str, row_id: str) -> Row:
    for row in db[table]:
        if row["id"] == row_id:
            return row
    raise ToolFailure(f"{table[:-1]} {row_id} not found")


def get_order(db: Db, order_id: str) -> Any:
    return _find(db, "orders", order_id)


def cancel_order(db: Db, order_id: str, reason: str) -> Any:
    order = _find(db, "orders", order_id)
    if order["status"] not in ("pending_payment", "processing"):
        raise ToolFailure(f"order {order_id} is {order['status']} and cannot be cancelled")
    order.update(status="cancelled", cancellation_reason=reason)
    return order


def update_shipping_speed(db: Db, order_id: str, speed: str) -> Any:
    if speed not in ("standard", "expedited"):
        raise ToolFailure(f"unknown shipping speed {speed!r}")
    order = _find(db, "orders", order_id)
    order["shipping_speed"] = speed
    return order


def create_ticket(db: Db, customer_id: str, subject: str) -> Any:
    _find(db, "customers", customer_id)
    ticket = {"id": f"TCK-{len(db['tickets']) + 1:03d}", "customer_id": customer_id, "subject": subject}
    db["tickets"].append(ticket)
    return ticket


def escalate_to_human(db: Db, reason: str) -> Any:
    row = {"id": f"ESC-{len(db['escalations']) + 1:03d}", "reason": reason}
    db["escalations"].append(row)
    return row


def is_warranty_active(db: Db, product_id: str) -> Any:
    product = _find(db, "products", product_id)
    today = datetime.date.today()  # the real clock, as the published retail tools read it
    active = today <= datetime.date.fromisoformat(product["warranty_until"])
    return {"product_id": product_id, "active": active, "today": today.isoformat()}


def search_policy(db: Db, query: str, max_results: int = 3) -> Any:
    raise ToolFailure("search backend is not available")


def crash_now(db: Db) -> Any:
    os._exit(3)


def _schema(*required: str, **optional: str) -> dict[str, Any]:
    properties = {name: {"type": "string"} for name in required}
    properties.update({name: {"type": kind} for name, kind in optional.items()})
    return {"type": "object", "properties": properties, "required": list(required)}


TOOLS: dict[str, tuple[Callable[..., Any], str, dict[str, Any]]] = {
    "get_order": (get_order, "Look up an order.", _schema("order_id")),
    "cancel_order": (cancel_order, "Cancel a pending or processing order.", _schema("order_id", "reason")),
    "update_shipping_speed": (update_shipping_speed, "Change shipping speed.", _schema("order_id", "speed")),
    "create_ticket": (create_ticket, "Open a support ticket.", _schema("customer_id", "subject")),
    "escalate_to_human": (escalate_to_human, "Hand the case to a human.", _schema("reason")),
    "is_warranty_active": (is_warranty_active, "Whether a product's warranty is active today.", _schema("product_id")),
    "search_policy": (search_policy, "Search the policy.", _schema("query", max_results="integer")),
    "crash_now": (crash_now, "Exit the process at once (for tests).", _schema()),
}


def reserved_init(config: dict[str, Any]) -> Any:
    global INITIAL, CONFIG
    if config.get("sources"):
        return {"status": "error", "message": "cannot index sources: no search backend is running"}
    _apply_patch(DB, config.get("data_patch") or {})
    INITIAL, CONFIG = copy.deepcopy(DB), config
    return {"status": "ok"}


def reserved_geteffects() -> Any:
    golden = copy.deepcopy(SEED)
    _apply_patch(golden, CONFIG.get("data_patch") or {})
    for step in (CONFIG.get("golden_test_case") or {}).get("tool_interactions") or []:
        function = TOOLS[step["tool"]][0]
        function(golden, **(step.get("parameters") or {}))  # a failing reference must fail loudly
    result_state, golden_state = _state(DB), _state(golden)
    return {
        "initial_db_state": _state(INITIAL or SEED),
        "result_db_state": result_state,
        "result_db_hash": _hash(result_state),
        "golden_db_state": golden_state,
        "golden_db_hash": _hash(golden_state),
        "diff": _diff(result_state, golden_state, ""),
        "rubrics_yesno": CONFIG.get("rubrics_yesno") or [],
    }


def _apply_patch(db: Db, patch: dict[str, list[Row]]) -> None:
    for table, rows in patch.items():
        if table not in db:
            raise ToolFailure(f"Unknown table {table}")
        for row in rows:
            existing = next((old for old in db[table] if old["id"] == row["id"]), None)
            if existing is None:
                db[table].append(copy.deepcopy(row))
            else:
                existing.update(copy.deepcopy(row))


def _state(db: Db) -> Db:
    return {table: sorted(rows, key=lambda row: str(row["id"])) for table, rows in sorted(db.items())}


def _hash(state: Db) -> str:
    return hashlib.sha256(json.dumps(state, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _diff(result: Any, golden: Any, path: str) -> list[dict[str, Any]]:
    def item(kind: str) -> dict[str, Any]:
        return {"path": path, "type": kind, "result": result, "golden": golden}

    if result is None or golden is None:
        if result is None and golden is not None:
            return [item("result is None, golden is not")]
        return [item("result is not None, golden is None")] if result is not None else []
    if type(result) is not type(golden):
        return [item("type mismatch")]
    if isinstance(result, dict):
        found: list[dict[str, Any]] = []
        for key in sorted(set(result) | set(golden)):
            where = f"{path}.{key}" if path else key
            if key not in result:
                found.append({"path": where, "type": "missing in result (present in golden)", "result": None,
                              "golden": golden[key]})  # fmt: skip
            elif key not in golden:
                found.append({"path": where, "type": "present in result (missing in golden)",
                              "result": result[key], "golden": None})  # fmt: skip
            else:
                found.extend(_diff(result[key], golden[key], where))
        return found
    if isinstance(result, list):
        found = [item("length mismatch")] if len(result) != len(golden) else []
        for index, (left, right) in enumerate(zip(result, golden, strict=False)):
            found.extend(_diff(left, right, f"{path}[{index}]"))
        return found
    return [item("value mismatch")] if result != golden else []


RESERVED: dict[str, tuple[Callable[..., Any], dict[str, Any]]] = {
    "__reserved__init": (reserved_init, {"type": "object", "properties": {"config": {"type": "object"}}}),
    "__reserved__geteffects": (reserved_geteffects, _schema()),
    "__reserved__teardown": (lambda: {"status": "ok"}, _schema()),
}


async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
    described = [(name, text, schema) for name, (_, text, schema) in TOOLS.items()]
    described += [(name, "Reserved for the harness.", schema) for name, (_, schema) in RESERVED.items()]
    tools = [types.Tool(name=name, description=text, input_schema=schema) for name, text, schema in described]
    return types.ListToolsResult(tools=tools)


async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    arguments = params.arguments or {}
    try:
        if params.name in RESERVED:
            answer = RESERVED[params.name][0](**arguments)
        elif params.name in TOOLS:
            answer = TOOLS[params.name][0](DB, **arguments)
        else:
            answer = {"error": f"unknown tool {params.name}"}
    except (ToolFailure, TypeError, KeyError) as exc:
        failure = str(exc) if isinstance(exc, ToolFailure) else f"{type(exc).__name__}: {exc}"
        answer = {"status": "error", "message": failure} if params.name in RESERVED else {"error": failure}
    return types.CallToolResult(content=[types.TextContent(text=json.dumps(answer))])


async def _serve() -> None:
    server = Server(SERVER_NAME, on_list_tools=list_tools, on_call_tool=call_tool)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def main() -> None:
    anyio.run(_serve)


if __name__ == "__main__":
    main()
