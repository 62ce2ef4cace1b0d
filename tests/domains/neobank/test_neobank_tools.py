"""The neobank tools: documented, honest about hard preconditions, and exact in the money they move."""

from __future__ import annotations

from typing import Any

import pytest

from statebox.domains.neobank import DOMAIN
from statebox.tools import ToolOutcome
from statebox.world import Session


def call(session: Session, name: str, **args: Any) -> ToolOutcome:
    return DOMAIN.tools.call(session, name, args)


def ok(session: Session, name: str, **args: Any) -> Any:
    outcome = call(session, name, **args)
    assert not outcome.is_error, outcome.text
    return outcome.data


def customer(session: Session, **rows: Any) -> dict[str, Any]:
    """A fresh test customer with one current account and one physical card."""
    c = {"id": "CUS-9901", "first_name": "Test", "last_name": "Kunde", "email": "test.kunde@example.org",
         "phone": "+31 6 5550 9901", "date_of_birth": "1990-01-02", "postcode": "1011 AB", "city": "Amsterdam",
         "country": "NL", "kyc_level": "verified", "plan": "standard", "billing_day": 1, "status": "active",
         "created_at": "2020-01-01T00:00:00+00:00", **rows}
    session.apply_rows({
        "customers": [c],
        "accounts": [{"id": "ACC-99001", "kind": "current", "name": "Main", "holder_id": c["id"], "balance": 1000.0,
                      "overdraft_limit": 0, "status": "active", "opened_at": "2020-01-01T00:00:00+00:00"}],
        "cards": [{"id": "CRD-99001", "account_id": "ACC-99001", "holder_id": c["id"], "kind": "physical",
                   "last4": "1234", "status": "active", "expires": "2028-01", "daily_spend_limit": 2000,
                   "daily_atm_limit": 300, "issued_at": "2024-01-01T00:00:00+00:00"}],
    })
    return c


def balance(session: Session, account_id: str) -> float:
    row = session.one("SELECT balance FROM accounts WHERE id = ?", account_id)
    assert row is not None
    return float(row["balance"])


def test_there_are_at_most_forty_tools_with_the_kit() -> None:
    assert 25 <= len(DOMAIN.tools.names) <= 40


@pytest.mark.parametrize("name", DOMAIN.tools.names)
def test_every_tool_has_a_description_and_documented_arguments(name: str) -> None:
    spec = DOMAIN.tools[name].spec
    assert len(spec.description) > 20, f"{name}: description too short"
    for arg, schema in spec.input_schema.get("properties", {}).items():
        assert schema.get("description"), f"{name}: argument {arg!r} has no description"


def test_profiles_never_show_the_identity_facts(bank: Session) -> None:
    customer(bank)
    profile = ok(bank, "get_customer", customer_id="CUS-9901")
    assert "date_of_birth" not in profile and "postcode" not in profile


def test_an_identity_check_is_recorded_and_does_not_say_which_fact_was_wrong(bank: Session) -> None:
    customer(bank)
    wrong = ok(bank, "verify_identity", customer_id="CUS-9901", date_of_birth="02/01/1990", postcode="1011 AC")
    right = ok(bank, "verify_identity", customer_id="CUS-9901", date_of_birth="02/01/1990", postcode="1011ab")
    assert wrong["verified"] is False and "postcode" not in str(wrong)
    assert right["verified"] is True
    checks = bank.all("SELECT passed FROM identity_checks WHERE customer_id = 'CUS-9901' ORDER BY id")
    assert [c["passed"] for c in checks] == [0, 1]


def test_a_failed_identity_check_counts_on_the_profile_and_a_passed_one_does_not(bank: Session) -> None:
    customer(bank)
    first = ok(bank, "verify_identity", customer_id="CUS-9901", date_of_birth="1990-02-01", postcode="1011 AB")
    ok(bank, "verify_identity", customer_id="CUS-9901", date_of_birth="1990-01-02", postcode="1011 AB")
    second = ok(bank, "verify_identity", customer_id="CUS-9901", date_of_birth="1990-01-02", postcode="9999 ZZ")
    assert (first["failed_identity_checks"], second["failed_identity_checks"]) == (1, 2)
    row = bank.one("SELECT failed_identity_checks FROM customers WHERE id = 'CUS-9901'")
    assert row == {"failed_identity_checks": 2}
    assert "failed_identity_checks" not in ok(bank, "get_customer", customer_id="CUS-9901")


def test_only_a_blocked_card_is_replaced_and_the_fee_is_charged_once(bank: Session) -> None:
    customer(bank)
    refused = call(bank, "replace_card", card_id="CRD-99001", fee=6)
    assert refused.error_kind == "precondition_failed" and "block it first" in refused.text
    ok(bank, "block_card", card_id="CRD-99001", reason="lost")
    new = ok(bank, "replace_card", card_id="CRD-99001", fee=6)
    assert new["new_card_id"] == "CRD-50001" and balance(bank, "ACC-99001") == 994.0
    card = bank.one("SELECT status, daily_atm_limit, replacement_of FROM cards WHERE id = 'CRD-50001'")
    assert card == {"status": "inactive", "daily_atm_limit": 300.0, "replacement_of": "CRD-99001"}


def test_a_blocked_card_cannot_be_unfrozen(bank: Session) -> None:
    customer(bank)
    ok(bank, "block_card", card_id="CRD-99001", reason="stolen")
    outcome = call(bank, "unfreeze_card", card_id="CRD-99001")
    assert outcome.error_kind == "precondition_failed" and "never be used again" in outcome.text


def test_a_pending_payment_cannot_be_disputed(bank: Session) -> None:
    customer(bank)
    bank.apply_rows({"transactions": [{"id": "TXN-999001", "account_id": "ACC-99001", "kind": "card_payment",
                                       "amount": -40.0, "description": "Card payment X", "status": "pending",
                                       "occurred_at": "2025-11-11T10:00:00+00:00"}]})
    outcome = call(bank, "open_dispute", transaction_id="TXN-999001", reason="duplicate", details="twice")
    assert outcome.error_kind == "precondition_failed" and "pending" in outcome.text


def test_a_dispute_credits_its_provisional_credit_and_a_chargeback_files_it(bank: Session) -> None:
    customer(bank)
    bank.apply_rows({"transactions": [{"id": "TXN-999002", "account_id": "ACC-99001", "kind": "card_payment",
                                       "amount": -89.99, "description": "Card payment Y", "status": "posted",
                                       "occurred_at": "2025-11-10T10:00:00+00:00"}]})
    d = ok(bank, "open_dispute", transaction_id="TXN-999002", reason="unauthorised", details="not me",
           provisional_credit=89.99)
    assert balance(bank, "ACC-99001") == pytest.approx(1089.99)
    ok(bank, "file_chargeback", dispute_id=d["dispute_id"])
    again = call(bank, "file_chargeback", dispute_id=d["dispute_id"])
    assert again.error_kind == "precondition_failed"
    second = call(bank, "open_dispute", transaction_id="TXN-999002", reason="duplicate", details="again")
    assert second.error_kind == "precondition_failed" and "already has dispute" in second.text


def test_an_international_transfer_charges_the_plan_fee_and_converts_at_the_rate(bank: Session) -> None:
    customer(bank, plan="plus")
    bank.apply_rows({"payees": [{"id": "PYE-99001", "customer_id": "CUS-9901", "name": "Brother", "iban": "GB29X",
                                 "bank_country": "GB", "currency": "GBP", "added_at": "2024-01-01T00:00:00+00:00",
                                 "status": "active"}]})
    sent = ok(bank, "send_transfer", account_id="ACC-99001", payee_id="PYE-99001", amount=400, reference="hi")
    assert (sent["fee"], sent["payee_receives"]) == (2.0, 348.48)
    assert balance(bank, "ACC-99001") == 598.0


def test_a_transfer_beyond_the_available_balance_is_refused(bank: Session) -> None:
    customer(bank)
    bank.apply_rows({"payees": [{"id": "PYE-99002", "customer_id": "CUS-9901", "name": "Landlord", "iban": "NL00X",
                                 "bank_country": "NL", "currency": "EUR", "added_at": "2024-01-01T00:00:00+00:00",
                                 "status": "active"}]})
    outcome = call(bank, "send_transfer", account_id="ACC-99001", payee_id="PYE-99002", amount=1500, reference="r")
    assert outcome.error_kind == "precondition_failed" and bank.effects().is_empty()


def test_a_downgrade_waits_for_the_next_billing_day_and_charges_nothing(bank: Session) -> None:
    customer(bank, plan="premium", billing_day=25)
    out = ok(bank, "change_plan", customer_id="CUS-9901", plan="plus", prorated_charge=0)
    assert out["effective_on"] == "2025-11-25"
    row = bank.one("SELECT plan, pending_plan FROM customers WHERE id = 'CUS-9901'")
    assert row == {"plan": "premium", "pending_plan": "plus"}
    assert call(bank, "change_plan", customer_id="CUS-9901", plan="standard", prorated_charge=3).is_error


def test_an_upgrade_starts_today_and_charges_the_prorated_amount(bank: Session) -> None:
    customer(bank)
    ok(bank, "change_plan", customer_id="CUS-9901", plan="premium", prorated_charge=9.5)
    assert balance(bank, "ACC-99001") == 990.5
    assert bank.one("SELECT plan FROM customers WHERE id = 'CUS-9901'") == {"plan": "premium"}


def test_a_fee_is_never_refunded_beyond_what_was_charged(bank: Session) -> None:
    customer(bank)
    bank.apply_rows({"transactions": [{"id": "TXN-999003", "account_id": "ACC-99001", "kind": "fee", "amount": -15.0,
                                       "description": "Overdraft fee", "fee_type": "overdraft", "status": "posted",
                                       "occurred_at": "2025-11-01T03:00:00+00:00"}]})
    ok(bank, "refund_fee", fee_transaction_id="TXN-999003", amount=10, reason="goodwill")
    outcome = call(bank, "refund_fee", fee_transaction_id="TXN-999003", amount=10, reason="bank_error")
    assert outcome.error_kind == "precondition_failed" and "only 5.00" in outcome.text


def test_closing_an_account_sweeps_its_pots_and_pays_out_everything(bank: Session) -> None:
    customer(bank)
    bank.apply_rows({
        "accounts": [{"id": "ACC-99002", "kind": "pot", "name": "Pot", "holder_id": "CUS-9901",
                      "parent_account_id": "ACC-99001", "balance": 250.0, "status": "active",
                      "opened_at": "2021-01-01T00:00:00+00:00"}],
        "payees": [{"id": "PYE-99003", "customer_id": "CUS-9901", "name": "Test Kunde", "iban": "NL00Y",
                    "bank_country": "NL", "currency": "EUR", "added_at": "2024-01-01T00:00:00+00:00",
                    "status": "active"}]})
    out = ok(bank, "close_account", account_id="ACC-99001", payout_payee_id="PYE-99003")
    assert out["paid_out"] == 1250.0
    rows = bank.all("SELECT id, status, balance FROM accounts WHERE id IN ('ACC-99001', 'ACC-99002') ORDER BY id")
    assert rows == [{"id": "ACC-99001", "status": "closed", "balance": 0.0},
                    {"id": "ACC-99002", "status": "closed", "balance": 0.0}]
    assert bank.one("SELECT status FROM cards WHERE id = 'CRD-99001'") == {"status": "closed"}


def test_a_held_payment_cancelled_returns_the_money(bank: Session) -> None:
    customer(bank)
    bank.apply_rows({"transactions": [{"id": "TXN-999004", "account_id": "ACC-99001", "kind": "transfer_out",
                                       "amount": -300.0, "description": "Transfer", "status": "held",
                                       "occurred_at": "2025-11-12T10:00:00+00:00"}]})
    ok(bank, "resolve_held_payment", transaction_id="TXN-999004", action="cancel")
    assert balance(bank, "ACC-99001") == 1300.0
    assert call(bank, "resolve_held_payment", transaction_id="TXN-999004", action="release").is_error
