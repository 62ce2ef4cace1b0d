"""How each mode spoils the reference, and how flaky attempts draw their mode (no HTTP)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from fakemodel_shop import EMAIL, NOTE, ORDER_ID, REFUND, shop_suite

from statebox.fakemodel import MISTAKES, attempt_mode
from statebox.fakemodel.mistakes import Mutation, find_mutation
from statebox.fakemodel.plan import build_plan
from statebox.tasks import RefCall

SCHEMA = {
    "type": "object",
    "properties": {
        "order_id": {"type": "string"},
        "reason": {"enum": ["damaged", "late", "other"], "type": "string"},
        "urgent": {"type": "boolean"},
        "quantity": {"type": "integer", "minimum": 1},
        "address": {"anyOf": [{"$ref": "#/$defs/Address"}, {"type": "null"}]},
        "body": {"type": "string"},
    },
    "$defs": {"Address": {"type": "object", "properties": {"city": {"type": "string"}}}},
}


def mutation(args: dict[str, Any]) -> Mutation | None:
    return find_mutation(args, SCHEMA, [ORDER_ID, EMAIL], free_text={"body"})


def test_wrong_value_prefers_a_number_then_an_enum_then_a_boolean_then_a_plain_string() -> None:
    args = {"order_id": "ORD-1001", "reason": "late", "urgent": False, "quantity": 1, "address": {"city": "Leeds"}}
    assert mutation(args) == Mutation(("quantity",), 2)
    assert mutation({**args, "quantity": None}) == Mutation(("reason",), "damaged")
    assert mutation({"urgent": False, "address": {"city": "Leeds"}}) == Mutation(("urgent",), True)
    assert mutation({"address": {"city": "Leeds"}}) == Mutation(("address", "city"), "Leeds (amended)")


def test_wrong_value_leaves_ids_references_facts_and_free_text_alone() -> None:
    args = {"order_id": "X-1", "ref": "${order.id}", "note": "mail jane@example.com", "body": "hello", "sku": "AB12"}
    assert mutation(args) is None


def test_wrong_value_falls_back_to_an_earlier_write_when_the_last_has_nothing_to_change() -> None:
    plan = build_plan(REFUND, shop_suite().domains["shop"], "wrong-value")
    spoiled = [(s.call.tool, s.mutation) for s in plan.steps if s.mutation]
    assert spoiled == [("refund_order", Mutation(("amount",), 20.0))]


def test_wrong_value_with_nothing_to_change_plays_the_reference() -> None:
    plan = build_plan(NOTE, shop_suite().domains["shop"], "wrong-value")
    assert [s.mutation for s in plan.steps] == [None]


def test_skip_last_write_also_drops_the_calls_that_use_its_result() -> None:
    suite = shop_suite()
    task = REFUND.model_copy(
        update={"reference": [*REFUND.reference[:2], RefCall(tool="find_order", args={"order_id": "${refund.id}"})]}
    )
    plan = build_plan(task, suite.domains["shop"], "skip-last-write")
    assert [s.call.tool for s in plan.steps] == ["find_order"]


def test_extra_write_repeats_the_last_insert_like_write_without_saving_it() -> None:
    plan = build_plan(REFUND, shop_suite().domains["shop"], "extra-write")
    assert [s.call.tool for s in plan.steps] == ["find_order", "refund_order", "add_note", "add_note"]
    assert plan.steps[-1].call.save_as is None


def test_give_up_stops_at_the_first_write_without_its_required_arguments() -> None:
    plan = build_plan(REFUND, shop_suite().domains["shop"], "give-up")
    assert [s.call.tool for s in plan.steps] == ["find_order", "refund_order"]
    assert plan.steps[-1].drop == {"order_id", "amount", "reason"} and plan.ending == "give-up"


def test_flaky_draws_are_stable_per_seed_and_opening() -> None:
    draws = [attempt_mode("flaky", 0.5, seed, REFUND.opening_message) for seed in range(400)]
    assert draws == [attempt_mode("flaky", 0.5, seed, REFUND.opening_message) for seed in range(400)]
    counts = Counter(draws)
    assert 160 < counts["reference"] < 240, counts
    assert set(counts) == {"reference", *MISTAKES}


def test_flaky_draws_ignore_whitespace_in_the_opening() -> None:
    squashed = " ".join(REFUND.opening_message.split())
    assert all(
        attempt_mode("flaky", 0.5, s, REFUND.opening_message) == attempt_mode("flaky", 0.5, s, squashed)
        for s in range(50)
    )


def test_fixed_modes_are_not_drawn() -> None:
    assert attempt_mode("extra-write", 0.0, 1, "anything") == "extra-write"
    assert attempt_mode("flaky", 0.0, 1, "anything") == "reference"
    assert attempt_mode("flaky", 1.0, 1, "anything") in MISTAKES
