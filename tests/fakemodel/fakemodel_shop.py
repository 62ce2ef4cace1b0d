"""A tiny shop domain and suite, and a hand-written agent loop that drives the fake model over HTTP."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, cast

from openai import AsyncOpenAI

from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
from statebox.judge import Verdict, judge_attempt, required_effects, rules_for
from statebox.suites import Suite
from statebox.tasks import Customer, Domain, Fact, RefCall, Task
from statebox.tools import BoundTools, NotFound, PreconditionFailed, Toolset, tool
from statebox.world import Sequence, Session, TableSpec, WorldSpec

DDL = """
CREATE TABLE orders (id TEXT PRIMARY KEY, email TEXT NOT NULL, status TEXT NOT NULL, total REAL NOT NULL);
CREATE TABLE refunds (id TEXT PRIMARY KEY, order_id TEXT NOT NULL, amount REAL NOT NULL, reason TEXT NOT NULL);
CREATE TABLE notes (id TEXT PRIMARY KEY, order_id TEXT NOT NULL, body TEXT NOT NULL);
"""


def _seed(db: sqlite3.Connection) -> None:
    db.executemany(
        "INSERT INTO orders VALUES (?, ?, ?, ?)",
        [("ORD-1001", "jane@example.com", "delivered", 40.0), ("ORD-1002", "bob@example.com", "delivered", 15.0)],
    )


@tool(writes=False)
def find_order(session: Session, order_id: str, email: str) -> dict[str, Any]:
    """Look up an order; the email must be the one on the order.

    Args:
        order_id: The order number.
        email: The customer's email address.
    """
    row = session.one("SELECT * FROM orders WHERE id = ?", order_id)
    if row is None or row["email"].lower() != email.lower():
        raise NotFound(f"no order {order_id!r} with that email.")
    return row


@tool(writes=True)
def refund_order(
    session: Session, order_id: str, amount: float, reason: Literal["damaged", "late", "other"]
) -> dict[str, Any]:
    """Refund an order, at most its total."""
    order = session.one("SELECT * FROM orders WHERE id = ?", order_id)
    if order is None:
        raise NotFound(f"no order {order_id!r}.")
    if order["status"] == "refunded" or amount > order["total"]:
        raise PreconditionFailed("this order cannot be refunded that much.")
    refund = {"id": session.next_id("refunds"), "order_id": order_id, "amount": amount, "reason": reason}
    session.insert("refunds", refund)
    session.update("orders", order_id, status="refunded")
    return refund


@tool(writes=True)
def add_note(session: Session, order_id: str, body: str) -> dict[str, Any]:
    """Add a note to an order."""
    note = {"id": session.next_id("notes"), "order_id": order_id, "body": body}
    return session.insert("notes", note)


WORLD = WorldSpec(
    name="shop",
    ddl=DDL,
    tables={"notes": TableSpec("notes", free_text=frozenset({"body"}))},
    now=datetime(2025, 1, 15, 12, 0),
    seed=_seed,
    sequences={"refunds": Sequence("RF-"), "notes": Sequence("N-")},
)
ORDER_ID = Fact(key="order_id", value="ORD-1001", asked_by=["order number", "order id"])
EMAIL = Fact(key="email", value="jane@example.com", asked_by=["email address", "email"])
REFUND = Task(
    id="refund-broken-mug",
    domain="shop",
    opening_message="Hi, my mug arrived   broken.\nI'd like my money back.",
    customer=Customer(goal="a full refund for the broken mug", facts=[ORDER_ID, EMAIL]),
    reference=[
        RefCall(tool="find_order", args={"order_id": "ORD-1001", "email": "jane@example.com"}, save_as="order"),
        RefCall(
            tool="refund_order", args={"order_id": "${order.id}", "amount": 40.0, "reason": "damaged"}, save_as="refund"
        ),
        RefCall(tool="add_note", args={"order_id": "${order.id}", "body": "Refund ${refund.id} for a broken mug"}),
    ],
)
NOTE = Task(
    id="leave-with-neighbour",
    domain="shop",
    opening_message="Can you tell the courier to leave my parcel with my neighbour?",
    customer=Customer(
        goal="a delivery note", facts=[Fact(key="order_id", value="ORD-1002", asked_by=["order number"])]
    ),
    reference=[RefCall(tool="add_note", args={"order_id": "ORD-1002", "body": "Leave the parcel with the neighbour"})],
)


def shop_suite() -> Suite:
    domain = Domain("shop", WORLD, Toolset([find_order, refund_order, add_note]), "Be kind.", Path("."))
    return Suite("shop", [REFUND, NOTE], {"shop": domain})


@contextmanager
def fake_model(suite: Suite, **config: Any) -> Iterator[FakeModelServer]:
    """The fake model for `suite` on a free local port, configured by FakeModelConfig's fields."""
    with FakeModelServer(FakeModelApp(suite, FakeModelConfig(**config))) as server:
        yield server


class ServerPool:
    """Fake model servers shared by a test module: one per configuration, all stopped at the end."""

    def __init__(self) -> None:
        self.suite = shop_suite()
        self._started: dict[tuple[tuple[str, Any], ...], FakeModelServer] = {}

    def get(self, **config: Any) -> FakeModelServer:
        key = tuple(sorted(config.items()))
        if key not in self._started:
            server = FakeModelServer(FakeModelApp(self.suite, FakeModelConfig(**config)))
            server.start()
            self._started[key] = server
        return self._started[key]

    def close(self) -> None:
        with ThreadPoolExecutor() as stopping:  # each stop waits for uvicorn's next tick
            list(stopping.map(FakeModelServer.stop, self._started.values()))


def client(server: FakeModelServer) -> AsyncOpenAI:
    return AsyncOpenAI(base_url=server.base_url, api_key="x", max_retries=0)


@dataclass
class Attempt:
    """One attempt played against the fake model, judged."""

    verdict: Verdict
    messages: list[dict[str, Any]]
    calls: list[tuple[str, dict[str, Any], bool]] = field(default_factory=list)  # tool, arguments, failed
    modes: set[str] = field(default_factory=set)  # the x-statebox-fake-mode of every response

    @property
    def final_reply(self) -> str:
        return str(self.messages[-1]["content"]) if self.messages[-1]["role"] == "assistant" else ""

    def agent_texts(self) -> list[str]:
        return [m["content"] for m in self.messages if m["role"] == "assistant" and not m.get("tool_calls")]


def customer_answer(task: Task, agent_text: str, withhold: bool) -> str | None:
    """The facts the agent's text asks for, or None (end of conversation) when it asks for none."""
    asked = [f for f in task.customer.facts if any(p in agent_text.lower() for p in f.asked_by)]
    if not asked:
        return None
    if withhold:
        return "I don't have that information."
    return " ".join(f"My {f.asked_by[0]} is {f.value}." for f in asked)


async def play(
    server: FakeModelServer, suite: Suite, task: Task, *, seed: int | None = None, withhold: bool = False
) -> Attempt:
    """Agent side by hand: send the history, run each tool call on a fresh session, answer questions."""
    session = suite.open_session(task)
    tools = BoundTools(suite.domain_of(task).tools, session)
    specs = [
        {"type": "function", "function": {"name": s.name, "description": s.description, "parameters": s.input_schema}}
        for s in tools.list_tools()
    ]
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You are a support agent.\n" + suite.domain_of(task).policy},
        {"role": "user", "content": task.opening_message},
    ]
    attempt = Attempt(verdict=Verdict(passed=False), messages=messages)
    async with client(server) as api:
        for _ in range(20):
            raw = await api.chat.completions.with_raw_response.create(
                model="fake",
                messages=cast(Any, messages),
                tools=cast(Any, specs),
                parallel_tool_calls=False,
                seed=seed,
            )
            attempt.modes.add(raw.headers.get("x-statebox-fake-mode", ""))
            message = raw.parse().choices[0].message
            if message.tool_calls:
                messages.append(message.model_dump(include={"role", "content", "tool_calls"}))
                for call in message.tool_calls:
                    args = json.loads(call.function.arguments)  # type: ignore[union-attr]
                    outcome = tools.call(call.function.name, args)  # type: ignore[union-attr]
                    attempt.calls.append((call.function.name, args, outcome.is_error))  # type: ignore[union-attr]
                    messages.append({"role": "tool", "tool_call_id": call.id, "content": outcome.text})
                continue
            messages.append({"role": "assistant", "content": message.content})
            answer = customer_answer(task, message.content or "", withhold)
            if answer is None:
                break
            messages.append({"role": "user", "content": answer})
    attempt.verdict = judge_attempt(session.effects(), required_effects(suite, task), rules_for(suite, task))
    session.close()
    return attempt
