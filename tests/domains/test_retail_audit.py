"""What the retail task audit asked for: dictated addresses, one rounding rule, private facts, verification."""

from __future__ import annotations

import json
import re
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Decimal
from typing import Any

import pytest

from statebox.domains.retail import DOMAIN
from statebox.judge.replay import judge_attempt, replay, required_effects, rules_for
from statebox.judge.trace import Event, violations
from statebox.suites import load_suite
from statebox.tasks import RefCall, Task
from statebox.tasks.checks import VerifyBefore

SUITE = load_suite("retail")
TASKS = {t.id: t for t in SUITE.tasks}
ID_SHAPED = re.compile(r"^[A-Z]{3}-\d+$")
LISTINGS = ("list_customer_orders", "list_customer_tickets", "get_customer", "get_loyalty_history")


def with_args(task: Task, tool: str, **changes: Any) -> list[RefCall]:
    """The reference with the arguments of its (single) call of `tool` changed."""
    calls = [c for c in task.reference if c.tool == tool]
    assert len(calls) == 1, f"{task.id} calls {tool} {len(calls)} times"
    return [c.model_copy(update={"args": {**c.args, **changes}}) if c.tool == tool else c for c in task.reference]


def passes(task: Task, calls: list[RefCall]) -> tuple[bool, str]:
    verdict = judge_attempt(replay(SUITE, task, calls), required_effects(SUITE, task), rules_for(SUITE, task))
    why = "; ".join(f"{d.table}.{d.field}: {d.expected!r} vs {d.actual!r}" for d in verdict.discrepancies)
    return verdict.passed, why


# Dictated addresses -------------------------------------------------------------------------------

@pytest.mark.parametrize(("task_id", "changes"), [
    ("redirect_office_chair_dictated_road_address_standard",
     {"line1": "4102 old mill rd.", "line2": "Apt. 3B", "city": "columbus"}),
    ("moving_house_redirect_mixer_cancel_rug", {"line1": "2750 Juniper Ridge Road"}),
    ("office_chair_gift_redirect_lamp_already_shipped_silver", {"line1": "1519 Regent Street"}),
])
def test_an_address_written_with_other_abbreviations_case_or_punctuation_passes(
    task_id: str, changes: dict[str, str]
) -> None:
    ok, why = passes(TASKS[task_id], with_args(TASKS[task_id], "add_address", **changes))
    assert ok, why


def test_an_address_with_another_house_number_still_fails() -> None:
    task = TASKS["redirect_office_chair_dictated_road_address_standard"]
    ok, _ = passes(task, with_args(task, "add_address", line1="4012 Old Mill Road"))
    assert not ok


# One rounding rule --------------------------------------------------------------------------------

def late_delivery_points(paid: str, percent: int) -> int:
    """Policy 1 and 5: points from the exact dollar amount (100 per dollar), rounded down."""
    return int((Decimal(paid) * percent).to_integral_value(rounding=ROUND_FLOOR))


def points_rounding_the_cent_first(paid: str, percent: int) -> int:
    """The reading the policy rules out: round the compensation to the cent, then convert."""
    return int((Decimal(paid) * percent / 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP) * 100)


BOUNDARIES = [  # (task, merchandise paid, percent, points): each sits on a sub-cent boundary
    ("gas_grill_eight_days_late_partial_return_standard", "597.90", 5, 2989),  # 2989.5
    ("missing_pillows_replacement_late_delivery_gold", "198.05", 10, 1980),  # 1980.5
    ("late_grill_found_followup_three_orders_platinum", "436.48", 20, 8729),  # 8729.6
    ("late_audio_order_points_round_down_not_to_cent_gold", "259.97", 10, 2599),  # 2599.7
    ("missing_bulbs_refund_and_two_day_delay_points_platinum", "168.99", 10, 1689),  # 1689.9
]


@pytest.mark.parametrize(("task_id", "paid", "percent", "points"), BOUNDARIES)
def test_boundary_points_are_rounded_down_from_the_exact_amount(task_id: str, paid: str, percent: int,
                                                                 points: int) -> None:
    assert late_delivery_points(paid, percent) == points
    assert points_rounding_the_cent_first(paid, percent) != points, "not a boundary case"
    granted = [c.args["points"] for c in TASKS[task_id].reference if c.tool == "add_loyalty_points"]
    assert points in granted, f"{task_id} grants {granted}, the rule gives {points}"


def test_every_policy_example_of_points_agrees_with_the_rule() -> None:
    section = DOMAIN.policy.split("## 5.")[1].split("## 6.")[0]
    examples = re.findall(r"(\d+)% of \$([\d.]+) is \$[\d.]+,[^;]*?(?<![\d.])(\d+) points", section)
    assert len(examples) >= 3, section
    for percent, paid, points in examples:
        assert late_delivery_points(paid, int(percent)) == int(points), (percent, paid, points)
    assert "2989.5 points, so 2989" in DOMAIN.policy


def test_late_delivery_points_need_the_order_they_compensate() -> None:
    task = TASKS["late_audio_order_points_round_down_not_to_cent_gold"]
    session = SUITE.open_session(task)
    try:
        outcome = DOMAIN.tools.call(session, "add_loyalty_points",
                                    {"customer_id": "CUS-9403", "points": 2599, "reason": "late_delivery"})
        assert outcome.error_kind == "invalid_arguments", outcome.text
    finally:
        session.close()


# Private facts ------------------------------------------------------------------------------------

def verification_needs(task: Task, key: str) -> bool:
    """The fact is one of the few identifying facts the task gives: without it the customer cannot verify."""
    for check in task.checks:
        if isinstance(check, VerifyBefore) and key in check.facts:
            identifying = [f.key for f in task.customer.facts if f.key in check.facts]
            if key in identifying and len(identifying) <= check.min_facts:
                return True
    return False


def what_listings_show(task: Task, known: list[str]) -> str:
    """Everything the listing tools return for the accounts these facts find, and each listed order and ticket."""
    session = SUITE.open_session(task)
    tools = SUITE.domain_of(task).tools
    shown: list[Any] = []
    try:
        customers: set[str] = set()
        for value in known:
            for arg in ("email", "phone"):
                found = tools.call(session, "find_customer", {arg: value})
                if not found.is_error:
                    customers |= {c["customer_id"] for c in found.data}
        for customer in sorted(customers):
            for name in LISTINGS:
                shown.append(tools.call(session, name, {"customer_id": customer}).data)
            for order in tools.call(session, "list_customer_orders", {"customer_id": customer}).data:
                shown.append(tools.call(session, "get_order", {"order_id": order["order_id"]}).data)
            for ticket in tools.call(session, "list_customer_tickets", {"customer_id": customer}).data:
                shown.append(tools.call(session, "get_ticket", {"ticket_id": ticket["ticket_id"]}).data)
    finally:
        session.close()
    return json.dumps(shown, default=str)


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_no_tool_gives_away_an_identifier_the_customer_is_meant_to_hold(task_id: str) -> None:
    task = TASKS[task_id]
    for fact in task.customer.facts:
        if not ID_SHAPED.match(fact.value) or verification_needs(task, fact.key):
            continue
        others = [f.value for f in task.customer.facts if f.key != fact.key]
        assert fact.value not in what_listings_show(task, others), (
            f"{task_id}: {fact.key} {fact.value} is shown by a tool to an agent holding only the other facts")


def test_a_ticket_number_is_found_by_listing_so_no_task_makes_it_a_fact() -> None:
    holders = [(t.id, f.value) for t in SUITE.tasks for f in t.customer.facts if f.value.startswith("TCK-")]
    assert holders == []
    sparks = TASKS["espresso_machine_sparks_pending_ticket_safety"]
    assert "TCK-93010" in what_listings_show(sparks, ["wendell.achterberg@fastmail.com"])
    assert any(c.tool == "list_customer_tickets" for c in sparks.reference)


# Verification that fails once, then succeeds ------------------------------------------------------

def conversation(task: Task, *customer_says: str) -> list[Event]:
    events = [Event("customer", 0, task.opening_message)]
    for said in customer_says:
        events += [Event("agent", len(events), "Could you tell me your email address and date of birth?"),
                   Event("customer", len(events) + 1, said)]
    events.append(Event("agent", len(events), "Shall I go ahead with the return? Please confirm."))
    events.append(Event("customer", len(events), "Yes, please go ahead."))
    events.append(Event("call", len(events), "{}", "create_return", {"order_id": "ORD-94010"}))
    return events


RETRY = "sweater_return_old_email_then_verified_gold"


def test_a_change_after_the_failed_first_attempt_breaks_verification() -> None:
    task = TASKS[RETRY]
    found = violations(task.checks, conversation(task, "lucia.banks@hotmail.com, born 1983-05-17"),
                       task.customer.facts)
    assert [d.check for d in found] == [c.name for c in task.checks if isinstance(c, VerifyBefore)]


def test_a_change_after_the_second_attempt_matches_is_verified() -> None:
    task = TASKS[RETRY]
    events = conversation(task, "lucia.banks@hotmail.com, born 1983-05-17", "Sorry: lucia.fbanks@proton.me.")
    assert violations(task.checks, events, task.customer.facts) == []


def test_the_wrong_first_email_belongs_to_no_account() -> None:
    task = TASKS[RETRY]
    session = SUITE.open_session(task)
    try:
        outcome = DOMAIN.tools.call(session, "find_customer", {"email": "lucia.banks@hotmail.com"})
        assert outcome.error_kind == "not_found", outcome.text
    finally:
        session.close()


def test_the_policy_accepts_the_pairs_the_verification_check_accepts() -> None:
    check = next(c for c in TASKS[RETRY].checks if isinstance(c, VerifyBefore))
    assert (set(check.facts), check.min_facts) == ({"email", "date_of_birth", "order_number"}, 2)
    section = DOMAIN.policy.split("## 2.")[1].split("## 3.")[0]
    assert "two of these three" in section
    for item in ("the email address on the account", "the date of birth", "the number of one of the customer's orders"):
        assert item in section


@pytest.mark.parametrize("typed", ["(619) 555-0147", "619.555.0147", "+1 619 555 0147", "16195550147"])
def test_a_new_phone_number_typed_any_way_passes(typed: str) -> None:
    task = TASKS["phone_number_change_verified_by_birthdate_and_email_gold"]
    ok, why = passes(task, with_args(task, "update_customer_contact", phone=typed))
    assert ok, why
