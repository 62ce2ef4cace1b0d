"""The retail tools: documented, honest about hard preconditions, deterministic in what they write."""

from __future__ import annotations

from typing import Any

import pytest

from statebox.domains.retail import DOMAIN
from statebox.tools import ToolOutcome
from statebox.world import Session

NOW = "2025-10-01T13:00:00+00:00"


def call(session: Session, name: str, **args: Any) -> ToolOutcome:
    return DOMAIN.tools.call(session, name, args)


def ok(session: Session, name: str, **args: Any) -> Any:
    outcome = call(session, name, **args)
    assert not outcome.is_error, outcome.text
    return outcome.data


def first_order(session: Session, status: str) -> dict[str, Any]:
    row = session.one("SELECT * FROM orders WHERE status = ? ORDER BY id LIMIT 1", status)
    assert row is not None, f"the seed has no {status} order"
    return row


def test_there_are_about_thirty_tools() -> None:
    assert 28 <= len(DOMAIN.tools.names) <= 40


@pytest.mark.parametrize("name", DOMAIN.tools.names)
def test_every_tool_has_a_description_and_documented_arguments(name: str) -> None:
    spec = DOMAIN.tools[name].spec
    assert len(spec.description) > 20, f"{name}: description too short"
    for arg, schema in spec.input_schema.get("properties", {}).items():
        assert schema.get("description"), f"{name}: argument {arg!r} has no description"


def test_cancelling_a_shipped_order_fails_with_a_precondition_and_a_hint(retail: Session) -> None:
    order = first_order(retail, "shipped")
    outcome = call(retail, "cancel_order", order_id=order["id"], reason="changed my mind")
    assert outcome.error_kind == "precondition_failed"
    assert "can no longer be cancelled" in outcome.text and "Hint:" in outcome.text
    assert retail.effects().is_empty()


def test_an_unknown_order_is_not_found_with_a_hint_to_ask_the_customer(retail: Session) -> None:
    outcome = call(retail, "get_order", order_id="ORD-19999")
    assert outcome.error_kind == "not_found"
    assert "ask the customer" in outcome.text


def test_an_unknown_customer_email_is_not_found(retail: Session) -> None:
    outcome = call(retail, "find_customer", email="nobody@example.com")
    assert outcome.error_kind == "not_found" and "Hint:" in outcome.text


def test_order_numbers_are_accepted_as_people_type_them(retail: Session) -> None:
    order = first_order(retail, "delivered")
    digits = order["id"].removeprefix("ORD-")
    assert ok(retail, "get_order", order_id=digits)["id"] == order["id"]
    assert ok(retail, "get_order", order_id=f" ord-{digits} ")["id"] == order["id"]


def test_cancelling_a_paid_order_refunds_it_with_the_next_refund_id_at_the_frozen_now(retail: Session) -> None:
    order = first_order(retail, "paid")
    result = ok(retail, "cancel_order", order_id=order["id"], reason="ordered twice")
    refund = retail.one("SELECT * FROM refunds WHERE order_id = ? AND created_at = ?", order["id"], NOW)
    assert refund is not None and refund["id"] == "RFD-500001"
    assert refund["amount"] == order["total"] == result["refunded"] and refund["reason"] == "cancellation"
    after = retail.one("SELECT status, cancelled_at FROM orders WHERE id = ?", order["id"])
    assert after == {"status": "cancelled", "cancelled_at": NOW}


def test_a_ticket_with_comment_and_status_writes_deterministic_rows(retail: Session) -> None:
    customer = retail.one("SELECT id FROM customers ORDER BY id LIMIT 1")
    assert customer is not None
    ticket = ok(retail, "create_ticket", customer_id=customer["id"], subject="Hello", description="A question")
    ok(retail, "add_ticket_comment", ticket_id=ticket["ticket_id"], body="Answered.", public=True)
    ok(retail, "update_ticket_status", ticket_id=ticket["ticket_id"], status="solved")
    inserted = {(c.table, c.key) for c in retail.effects().of_kind("insert")}
    assert inserted == {("tickets", "TCK-50001"), ("ticket_comments", "CMT-500001")}
    row = retail.one("SELECT status, created_at, requester_id FROM tickets WHERE id = 'TCK-50001'")
    assert row == {"status": "solved", "created_at": NOW, "requester_id": customer["id"]}


def test_hold_needs_a_hold_reason(retail: Session) -> None:
    customer = retail.one("SELECT id FROM customers ORDER BY id LIMIT 1")
    assert customer is not None
    ticket = ok(retail, "create_ticket", customer_id=customer["id"], subject="Where is it", description="Parcel")
    outcome = call(retail, "update_ticket_status", ticket_id=ticket["ticket_id"], status="hold")
    assert outcome.error_kind == "invalid_arguments"


def test_a_refund_cannot_exceed_what_is_left_of_the_payment(retail: Session) -> None:
    order = first_order(retail, "delivered")
    pay = retail.one("SELECT amount FROM payments WHERE order_id = ? AND status = 'captured'", order["id"])
    assert pay is not None
    outcome = call(retail, "issue_refund", order_id=order["id"], amount=pay["amount"] + 1, reason="damaged_item")
    assert outcome.error_kind == "precondition_failed"
    assert retail.effects().is_empty()


def test_a_partial_refund_goes_to_the_original_payment(retail: Session) -> None:
    order = first_order(retail, "delivered")
    pay = retail.one("SELECT * FROM payments WHERE order_id = ?", order["id"])
    assert pay is not None
    result = ok(retail, "issue_refund", order_id=order["id"], amount=10, reason="missing_item")
    assert result["card_last4"] == pay["card_last4"] and result["method"] == pay["method"]
    after = retail.one("SELECT refunded_amount, status FROM payments WHERE id = ?", pay["id"])
    assert after == {"refunded_amount": 10.0, "status": "partially_refunded"}


def test_a_return_refund_amount_is_the_items_value_minus_the_fee(retail: Session) -> None:
    order = first_order(retail, "delivered")
    item = retail.one("SELECT id, unit_price, quantity FROM order_items WHERE order_id = ? ORDER BY id", order["id"])
    assert item is not None
    rma = ok(retail, "create_return", order_id=order["id"], order_item_ids=[item["id"]], reason="changed_mind",
             restocking_fee=1.5)
    assert rma["return_id"] == "RMA-50001" and rma["status"] == "approved"
    assert rma["refund_amount"] == round(item["unit_price"] * item["quantity"] - 1.5, 2)
    again = call(retail, "create_return", order_id=order["id"], order_item_ids=[item["id"]], reason="defective")
    assert again.error_kind == "precondition_failed"


def test_a_full_installation_slot_cannot_be_booked(retail: Session) -> None:
    job = retail.one("SELECT id FROM installation_jobs WHERE status = 'scheduled' ORDER BY id LIMIT 1")
    assert job is not None
    retail.execute("UPDATE installation_slots SET booked = capacity WHERE id = 'SLT-2025-10-09-PM'")
    outcome = call(retail, "reschedule_installation", installation_id=job["id"], date="2025-10-09", period="PM")
    assert outcome.error_kind == "precondition_failed" and "full" in outcome.text


def test_a_sunday_has_no_installation_slot(retail: Session) -> None:
    job = retail.one("SELECT id FROM installation_jobs WHERE status = 'scheduled' ORDER BY id LIMIT 1")
    assert job is not None
    outcome = call(retail, "reschedule_installation", installation_id=job["id"], date="2025-10-05", period="AM")
    assert outcome.error_kind == "not_found"


def test_emails_go_to_the_address_on_file_and_need_a_real_reference(retail: Session) -> None:
    customer = retail.one("SELECT id, email FROM customers ORDER BY id LIMIT 1")
    assert customer is not None
    missing = call(retail, "send_email", customer_id=customer["id"], template="return_label",
                   reference_id="RMA-99999", subject="Label", body="Here it is")
    assert missing.error_kind == "not_found"
    rma = retail.one("SELECT id FROM returns ORDER BY id LIMIT 1")
    assert rma is not None
    sent = ok(retail, "send_email", customer_id=customer["id"], template="return_label", reference_id=rma["id"],
              subject="Label", body="Here it is")
    assert sent == {"email_id": "EML-50001", "to": customer["email"], "template": "return_label",
                    "reference_id": rma["id"]}


# Checking a texted code records the check (the verification record), so it writes.
WRITING_CHECKS = {"check_verification_code"}


@pytest.mark.parametrize("name", DOMAIN.tools.names)
def test_lookups_are_read_only_and_everything_else_writes(name: str) -> None:
    lookup = name.startswith(("get_", "list_", "find_", "search_", "check_")) and name not in WRITING_CHECKS
    assert DOMAIN.tools[name].writes is not lookup
