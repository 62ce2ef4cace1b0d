"""statebox's typed judge over τ-bench's collections: entries are rows keyed by their ids, a dict-of-dicts field is a
table of its own keyed by (id, sub-id), new entries are matched by content; never by position."""

from __future__ import annotations

from typing import Any

from statebox.compat.taubench.typed_verdict import to_json, typed_verdict

USER = {
    "name": "Mia",
    "payment_methods": {"gift_card_1": {"source": "gift_card", "amount": 100}},
    "reservations": ["A1"],
}


def change(key: str, before: Any, after: Any) -> dict[str, Any]:
    return {"key": key, "before": before, "after": after}


def with_amount(amount: int) -> dict[str, Any]:
    return {**USER, "payment_methods": {"gift_card_1": {"source": "gift_card", "amount": amount}}}


def found(changes: dict[str, Any], golden: dict[str, Any]) -> set[tuple[str, str, Any, str | None]]:
    return {
        (d.kind, d.table, d.key if not isinstance(d.key, list) else tuple(d.key), d.field)
        for d in typed_verdict(changes, golden).discrepancies
    }


def test_the_same_changes_pass() -> None:
    same = {"users": [change("mia", USER, with_amount(50))]}
    assert typed_verdict(same, same).passed


def test_a_wrong_amount_is_a_wrong_value_in_the_nested_table_keyed_by_both_ids() -> None:
    assert found(
        {"users": [change("mia", USER, with_amount(40))]}, {"users": [change("mia", USER, with_amount(50))]}
    ) == {("wrong_value", "users.payment_methods", ("mia", "gift_card_1"), "amount")}


def test_an_untouched_required_change_is_missing_and_an_unasked_one_is_extra() -> None:
    golden = {"users": [change("mia", USER, with_amount(50))]}
    assert found({}, golden) == {("missing_effect", "users.payment_methods", ("mia", "gift_card_1"), "amount")}
    renamed = {"users": [change("mia", USER, {**USER, "name": "Mya"})]}
    assert found(renamed, golden) == {
        ("extra_effect", "users", "mia", "name"),
        ("missing_effect", "users.payment_methods", ("mia", "gift_card_1"), "amount"),
    }


def test_a_new_entry_is_matched_by_content_and_a_second_one_is_extra() -> None:
    booking = {"reservation_id": "HATHAT", "cabin": "economy", "flights": [{"flight_number": "HAT1"}]}
    golden = {"reservations": [change("HATHAT", None, booking)]}
    assert typed_verdict(golden, golden).passed
    twice = {
        "reservations": [
            change("HATHAT", None, booking),
            change("HATHAU", None, {**booking, "reservation_id": "HATHAU"}),
        ]
    }
    assert {k[0] for k in found(twice, golden)} == {"extra_effect"}


def test_the_trial_effects_show_only_the_changed_fields() -> None:
    shown = to_json({"users": [change("mia", USER, with_amount(40))]})
    assert shown["updated"]["users.payment_methods"] == [
        {"key": ["mia", "gift_card_1"], "fields": {"amount": {"before": 100, "after": 40}}}
    ]
    assert shown["inserted"] == {} and shown["deleted"] == {}
