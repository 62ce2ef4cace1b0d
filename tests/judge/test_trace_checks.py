"""Trace checks: each kind passes a compliant trace and fails a violating one, with the evidence."""

from __future__ import annotations

import json

import pytest

from statebox.agents.transcript import Entry, ToolCallEntry, Transcript
from statebox.judge.trace import Event, events_of, violations
from statebox.tasks import Fact
from statebox.tasks.checks import AtMost, ConfirmBefore, Never, ReadBefore, TraceCheck, VerifyBefore

FACTS = [Fact(key="email", value="ana@example.com", asked_by=["email"]),
         Fact(key="date_of_birth", value="1990-02-03", asked_by=["date of birth"])]


def say(who: str, text: str) -> Event:
    return Event(who, 0, text)  # type: ignore[arg-type]


def call(tool: str, result: object = None, ok: bool = True, **args: object) -> Event:
    return Event("call", 7, json.dumps(result or {}), tool, dict(args), ok)


def found(check: TraceCheck, trace: list[Event]) -> list[str]:
    return [str(d.actual) for d in violations([check], trace, FACTS)]


CONFIRM = ConfirmBefore(tools=["issue_refund"])


def test_confirm_before_passes_after_a_confirmation_the_customer_agreed_to() -> None:
    trace = [say("agent", "I can refund $20 to your card. Shall I go ahead?"), say("customer", "Yes, please."),
             call("issue_refund")]
    assert found(CONFIRM, trace) == []


@pytest.mark.parametrize("before", [
    [],
    [say("agent", "I will refund $20 to your card.")],  # told, not asked
    [say("agent", "Shall I refund $20?"), say("customer", "No, I want a replacement.")],
], ids=["nothing said", "no question", "customer refused"])
def test_confirm_before_fails_a_write_without_an_agreed_confirmation(before: list[Event]) -> None:
    expected = ["issue_refund with no confirmation asked and agreed before it"]
    assert found(CONFIRM, [*before, call("issue_refund")]) == expected


def test_a_violation_names_the_check_the_call_and_the_message_index() -> None:
    [d] = violations([CONFIRM], [call("issue_refund")], FACTS)
    assert (d.kind, d.check, d.field, d.message_index) == ("policy_violation", "confirm_before(issue_refund)",
                                                           "issue_refund", 7)


def test_a_failed_call_is_not_a_write_that_needs_confirmation() -> None:
    assert found(CONFIRM, [call("issue_refund", ok=False)]) == []


VERIFY_BY_TOOL = VerifyBefore(tools=["update_address"], verified_by=["check_verification_code"])
VERIFY_BY_FACTS = VerifyBefore(tools=["update_address"], facts=["email", "date_of_birth"], min_facts=2)


def test_verify_before_passes_once_a_code_check_said_verified() -> None:
    trace = [call("check_verification_code", {"verified": True}), call("update_address")]
    assert found(VERIFY_BY_TOOL, trace) == []


def test_verify_before_fails_when_the_code_check_said_no_or_came_after() -> None:
    wrong = [call("check_verification_code", {"verified": False, "tries_left": 2}), call("update_address")]
    late = [call("update_address"), call("check_verification_code", {"verified": True})]
    assert found(VERIFY_BY_TOOL, wrong) == ["update_address before identity was established"]
    assert found(VERIFY_BY_TOOL, late) == ["update_address before identity was established"]


def test_verify_before_by_facts_needs_the_customer_to_have_stated_enough_true_values() -> None:
    both = [say("customer", "It's ana@example.com, born 1990-02-03."), call("update_address")]
    one = [say("customer", "It's ana@example.com."), call("update_address")]
    wrong = [say("customer", "It's ana@example.com, born 1991-01-01."), call("update_address")]
    assert found(VERIFY_BY_FACTS, both) == []
    assert found(VERIFY_BY_FACTS, one) == found(VERIFY_BY_FACTS, wrong) == [
        "update_address before identity was established"]


READ = ReadBefore(tools=["cancel_order"], arg="order_id", read_tools=["get_order", "list_orders"])


def test_read_before_passes_when_the_record_was_read_by_id_or_seen_in_a_listing() -> None:
    by_id = [call("get_order", order_id="ord-1"), call("cancel_order", order_id="ORD-1")]
    listed = [call("list_orders", [{"order_id": "ORD-1"}], customer_id="C-1"), call("cancel_order", order_id="ORD-1")]
    assert found(READ, by_id) == found(READ, listed) == []


def test_read_before_fails_a_write_to_a_record_never_read_or_read_unsuccessfully() -> None:
    other = [call("get_order", order_id="ORD-2"), call("cancel_order", order_id="ORD-1")]
    failed = [call("get_order", ok=False, order_id="ORD-1"), call("cancel_order", order_id="ORD-1")]
    assert found(READ, other) == found(READ, failed) == ["cancel_order on 'ORD-1' before it was read"]


def test_never_fails_any_call_to_the_tool_even_a_failed_one() -> None:
    check = Never(tools=["delete_account"])
    assert found(check, [call("get_order")]) == []
    assert found(check, [call("delete_account", ok=False)]) == ["delete_account was called"]


def test_at_most_counts_successful_calls_and_flags_the_first_one_over() -> None:
    check = AtMost(tool="issue_refund", times=1)
    assert found(check, [call("issue_refund"), call("issue_refund", ok=False)]) == []
    assert found(check, [call("issue_refund"), call("issue_refund"), call("issue_refund")]) == [
        "issue_refund succeeded 3 times"]


def test_a_transcript_becomes_messages_and_calls_paired_with_their_results() -> None:
    transcript = Transcript(entries=[
        Entry(role="customer", content="Hi"),
        Entry(role="agent", tool_calls=[ToolCallEntry(id="c1", name="get_order", arguments={"order_id": "ORD-1"})]),
        Entry(role="tool", tool_call_id="c1", tool_name="get_order", content='{"status": "paid"}'),
        Entry(role="agent", content="Shall I cancel it?"),
    ])
    events = events_of(transcript)
    assert [(e.kind, e.tool, e.ok, e.index) for e in events] == [
        ("customer", "", True, 0), ("call", "get_order", True, 1), ("agent", "", True, 3)]
    assert events[1].text == '{"status": "paid"}'


def test_verify_before_accepts_a_date_of_birth_spelled_out() -> None:
    trace = [say("customer", "Email ana@example.com; I was born on 3 February 1990."), call("update_address")]
    assert found(VERIFY_BY_FACTS, trace) == []
