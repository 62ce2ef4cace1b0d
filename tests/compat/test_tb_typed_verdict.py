"""statebox's typed judge on ThinkingBox-Bench states: rows matched by key or content, never by position."""

from __future__ import annotations

from typing import Any

from statebox.compat.thinkingbox import judge_effects
from statebox.compat.thinkingbox.models import TbEffects
from statebox.compat.thinkingbox.typed_verdict import table_key

LINES = [{"id": "LIN-20000001", "order": "ORD-1", "qty": 1}, {"id": "LIN-20000002", "order": "ORD-1", "qty": 2}]
NEW_LINE = {"id": "LIN-10000001", "order": "ORD-2", "qty": 5}  # sorts before the existing rows
STOCK = [{"sku": "A", "available": 4, "tags": ["x", "y"]}, {"sku": "B", "available": 0, "tags": []}]


def report(initial: dict[str, Any], result: dict[str, Any], golden: dict[str, Any]) -> TbEffects:
    same = result == golden
    return TbEffects(initial_db_state=initial, result_db_state=result, golden_db_state=golden,
                     result_db_hash="r", golden_db_hash="r" if same else "g")  # fmt: skip


def kinds(effects: TbEffects) -> list[tuple[str, str, Any, str | None]]:
    return [(d.kind, d.table, d.key, d.field) for d in judge_effects({"s": effects}).verdict.discrepancies]


def test_a_noop_misses_the_inserted_row_and_never_compares_existing_rows_by_position() -> None:
    initial = {"lines": LINES, "stock": STOCK}
    golden = {"lines": [NEW_LINE, *LINES], "stock": STOCK}
    judged = judge_effects({"s": report(initial, initial, golden)})
    found = [(d.kind, d.table, d.key) for d in judged.verdict.discrepancies]
    assert found == [("missing_effect", "lines", NEW_LINE["id"])]
    assert judged.verdict.passed is False and judged.typed.passed is False
    assert judged.summary["typed"] == {"passed": False, "agrees_with_hash": True, "unreadable": []}


def test_an_update_is_matched_by_key_with_the_field_before_and_after() -> None:
    initial = {"stock": STOCK}
    golden = {"stock": [{**STOCK[0], "available": 3}, STOCK[1]]}
    wrong = {"stock": [{**STOCK[0], "available": 2}, STOCK[1]]}
    assert kinds(report(initial, initial, golden)) == [("missing_effect", "stock", "A", "available")]
    (found,) = judge_effects({"s": report(initial, wrong, golden)}).verdict.discrepancies
    assert (found.kind, found.key, found.field, found.expected, found.actual) == ("wrong_value", "A", "available", 3, 2)
    extra = {"stock": [STOCK[0], {**STOCK[1], "available": 9}]}
    assert kinds(report(initial, extra, initial)) == [("extra_effect", "stock", "B", "available")]


def test_a_row_inserted_under_another_generated_id_matches_by_content() -> None:
    initial = {"lines": LINES}
    golden = {"lines": [*LINES, {**NEW_LINE, "id": "LIN-20000003"}]}
    result = {"lines": [*LINES, {**NEW_LINE, "id": "LIN-20000009"}]}
    judged = judge_effects({"s": report(initial, result, golden)})
    assert judged.verdict.discrepancies == [] and judged.typed.passed is True
    assert judged.summary["typed"]["agrees_with_hash"] is False  # the hash sees another id


def test_list_order_timestamps_and_reworded_prose_are_not_differences() -> None:
    ticket = {"id": "6", "status": "open", "description": "Late order", "updated_at": "2025-10-01T13:00:00Z"}
    initial = {"stock": STOCK, "tickets": [ticket]}
    golden = {"stock": STOCK, "tickets": [{**ticket, "status": "hold", "description": "On hold", "updated_at": "T1"}]}
    reworded = {**ticket, "status": "hold", "description": "Held for the customer", "updated_at": "T2"}
    result = {"stock": [{**STOCK[0], "tags": ["y", "x"]}, STOCK[1]], "tickets": [reworded]}
    assert kinds(report(initial, result, golden)) == []
    unworded = {"stock": STOCK, "tickets": [{**ticket, "status": "hold", "updated_at": "T2"}]}
    assert kinds(report(initial, unworded, golden)) == [("missing_effect", "tickets", "6", "description")]


def test_a_tables_key_is_id_else_its_first_distinct_column_else_the_whole_row() -> None:
    assert table_key([LINES, [*LINES, NEW_LINE]]) == "id"
    assert table_key([STOCK]) == "sku"
    pairs = [{"group": "g1", "user": "u1"}, {"group": "g1", "user": "u2"}, {"group": "g2", "user": "u1"}]
    assert table_key([pairs]) == ("group", "user")
    assert table_key([[{"a": 1}, {"a": 1}]]) is None


def test_states_that_are_not_tables_of_rows_leave_the_typed_verdict_unknown() -> None:
    judged = judge_effects({"s": report({"t": "text"}, {"t": "text"}, {"t": "text"})})
    assert judged.typed.passed is None and judged.summary["typed"]["unreadable"] == ["s"]
    assert judged.verdict.passed is True  # the hash rule still decides


def test_keys_are_told_apart_by_their_json_text_so_a_string_never_matches_a_number() -> None:
    assert table_key([[{"code": "1", "n": 1}, {"code": 1, "n": 2}]]) == "code"  # "1" and 1: two keys
    assert table_key([[{"code": 1, "n": 1}, {"code": 1.0, "n": 2}]]) == "code"  # 1 and 1.0 read differently
    assert table_key([[{"code": 1, "n": 1}, {"code": True, "n": 2}]]) == "code"  # and so do 1 and true
    assert table_key([[{"code": "1.0", "n": 1}, {"code": 1.0, "n": 1}]]) == "code"  # "1.0" is not 1.0
    assert table_key([[{"code": 7, "n": 1}, {"code": 7, "n": 2}]]) == "n"  # equal keys are equal


def test_the_changes_of_a_table_come_in_the_order_of_their_keys_json_text() -> None:
    keys: list[Any] = [9, 10, "a", 2.5]
    initial = {"t": [{"id": key, "v": 0} for key in keys]}
    golden = {"t": [{"id": key, "v": 1} for key in keys]}
    effects = judge_effects({"s": report(initial, golden, golden)}).summary["updated"]["t"]
    assert [row["key"] for row in effects] == ["a", 10, 2.5, 9]  # the text order: '"a"' < '10' < '2.5' < '9'


def test_tables_equal_to_the_initial_ones_are_passed_over_with_the_same_changes_as_a_full_read() -> None:
    from statebox.compat.thinkingbox.typed_verdict import _tables, server_changes, state_effects

    tickets = [{"id": "6", "status": "open", "tags": ["b", "a"]}, {"id": "7", "status": "open", "tags": []}]
    initial = {"lines": LINES, "stock": STOCK, "tickets": tickets}
    result = {"lines": [*LINES, NEW_LINE], "stock": [dict(r) for r in STOCK],  # stock: equal rows, other objects
              "tickets": [{**tickets[0], "tags": ["a", "b"]}, tickets[1]]}  # reordered tags: no change  # fmt: skip
    golden = {"lines": LINES, "stock": [STOCK[0], {**STOCK[1], "available": 1}], "tickets": tickets}
    changes = server_changes(report(initial, result, golden))
    assert changes is not None
    full = [_tables(s) for s in (initial, result, golden)]
    assert all(t is not None for t in full)
    expect_actual = state_effects(full[0], full[1], changes.specs)  # type: ignore[arg-type]
    expect_required = state_effects(full[0], full[2], changes.specs)  # type: ignore[arg-type]
    assert changes.actual == expect_actual, f"{changes.actual} != {expect_actual}"
    assert changes.required == expect_required, f"{changes.required} != {expect_required}"
    assert [(c.table, c.kind) for c in changes.actual.changes] == [("lines", "insert")]
    assert [(c.table, c.kind, c.key) for c in changes.required.changes] == [("stock", "update", "B")]
