"""Shared tables: reference data held once per image, read-only in every session, never in effects."""

from __future__ import annotations

import sqlite3
from datetime import datetime

import pytest

from statebox.world import Session, Snapshot, TableSpec, WorldError, WorldSpec

DDL = """
CREATE TABLE products (id TEXT PRIMARY KEY, name TEXT NOT NULL, price REAL NOT NULL);
CREATE INDEX idx_products_name ON products(name);
CREATE TABLE orders (id TEXT PRIMARY KEY, product_id TEXT NOT NULL REFERENCES products(id), qty INTEGER NOT NULL);
"""


def seed(conn: sqlite3.Connection) -> None:
    conn.executemany("INSERT INTO products VALUES (?, ?, ?)", [(f"P-{i}", f"thing {i}", i * 1.5) for i in range(2000)])
    conn.execute("INSERT INTO orders VALUES ('O-1', 'P-1', 2)")


def world(shared: bool = True, ddl: str = DDL, seeded: bool = True) -> WorldSpec:
    return WorldSpec(name="shop", ddl=ddl, now=datetime(2026, 1, 1), seed=seed if seeded else None,
                     tables={"products": TableSpec("products", shared=shared), "orders": TableSpec("orders")})


def test_a_shared_table_leaves_the_private_image_and_is_read_through_the_attached_copy():
    private, whole = Snapshot.build(world()), Snapshot.build(world(shared=False))
    assert len(private.image) < len(whole.image) - 50_000, (len(private.image), len(whole.image))
    session = Session(private)
    row = session.one("SELECT o.id, p.name, p.price FROM orders o JOIN products p ON p.id = o.product_id")
    assert row == {"id": "O-1", "name": "thing 1", "price": 1.5}
    assert session.one("SELECT count(*) AS n FROM products") == {"n": 2000}
    assert "products" in private.tables and private.table_columns["products"] == ("id", "name", "price")


def test_a_tool_write_to_a_shared_table_fails_loudly_and_leaves_nothing_behind():
    session = Session(Snapshot.build(world()))
    refused = pytest.raises(WorldError, match=r"shared table.*\['products'\].*read-only")
    with refused, session.transaction():
        session.insert("orders", {"id": "O-2", "product_id": "P-2", "qty": 1})
        session.update("products", "P-2", price=0.0)
    assert session.effects().is_empty(), session.effects().to_json()
    assert session.one("SELECT price FROM products WHERE id = 'P-2'") == {"price": 3.0}
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        session.execute("DELETE FROM products")


def test_sessions_stay_isolated_and_effects_exact_beside_shared_tables():
    snapshot = Snapshot.build(world())
    a, b = Session(snapshot), Session(snapshot)
    with a.transaction():
        a.insert("orders", {"id": "O-2", "product_id": "P-7", "qty": 3})
        a.update("orders", "O-1", qty=5)
    assert b.one("SELECT count(*) AS n FROM orders") == {"n": 1}
    assert b.effects().is_empty()
    assert a.effects().to_json() == {
        "inserted": {"orders": [{"id": "O-2", "product_id": "P-7", "qty": 3}]},
        "updated": {"orders": [{"key": "O-1", "fields": {"qty": {"before": 2, "after": 5}}}]},
        "deleted": {},
    }


def test_initial_rows_may_add_to_a_shared_table_in_the_derived_image_only():
    pristine = Snapshot.build(world())
    derived = pristine.derive({"products": [{"id": "P-X", "name": "task thing", "price": 9.0}],
                               "orders": [{"id": "O-9", "product_id": "P-X", "qty": 1}]})
    assert derived.shared is not None and derived.shared is not pristine.shared
    task_session, other = Session(derived), Session(pristine)
    assert task_session.one("SELECT name FROM products WHERE id = 'P-X'") == {"name": "task thing"}
    assert other.one("SELECT name FROM products WHERE id = 'P-X'") is None
    assert task_session.effects().is_empty(), task_session.effects().to_json()
    only_private = pristine.derive({"orders": [{"id": "O-8", "product_id": "P-1", "qty": 1}]})
    assert only_private.shared is pristine.shared  # nothing shared changed: the one copy is reused


def test_rows_applied_to_a_live_session_reach_its_shared_tables_and_no_one_elses():
    snapshot = Snapshot.build(world())
    session, other = Session(snapshot), Session(snapshot)
    session.apply_rows({"products": [{"id": "P-Y", "name": "new", "price": 1.0}, {"id": "P-3", "price": 0.5}],
                        "orders": [{"id": "O-3", "product_id": "P-Y", "qty": 1}]})
    assert session.all("SELECT id, price FROM products WHERE id IN ('P-3', 'P-Y') ORDER BY id") == [
        {"id": "P-3", "price": 0.5}, {"id": "P-Y", "price": 1.0}]
    assert other.one("SELECT price FROM products WHERE id = 'P-3'") == {"price": 4.5}
    assert session.effects().is_empty(), session.effects().to_json()
    with pytest.raises(WorldError, match="read-only"), session.transaction():
        session.update("products", "P-Y", price=2.0)
    with pytest.raises(WorldError, match=r"table 'products' row 0: unknown column\(s\) \['colour'\]"):
        session.apply_rows({"products": [{"id": "P-Z", "colour": "red"}]})
    assert session.one("SELECT count(*) AS n FROM products") == {"n": 2001}


def test_a_shared_declaration_the_schema_cannot_honour_is_refused_at_build():
    with pytest.raises(ValueError, match=r"shared table\(s\) \['products'\] are not in the schema"):
        Snapshot.build(world(ddl="CREATE TABLE orders (id TEXT PRIMARY KEY, qty INTEGER);", seeded=False))
    trigger = DDL + "CREATE TRIGGER t_p AFTER INSERT ON products BEGIN SELECT 1; END;"
    with pytest.raises(ValueError, match="shared table 'products' has a trigger 't_p'"):
        Snapshot.build(world(ddl=trigger))
