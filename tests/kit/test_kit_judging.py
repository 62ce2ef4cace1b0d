"""Judging rules the kit gives domains: composite keys, numeric tolerance, dictated text, customer actions."""

from __future__ import annotations

import pytest

from kitdemo import DOMAIN
from statebox.judge import judge_attempt, required_effects, rules_for
from statebox.judge.validation import validate_task
from statebox.suites import Suite
from statebox.tools import BoundTools
from statebox.users.scripted import ScriptedCustomer


def test_a_composite_key_row_is_captured_and_reported_by_its_key_values(suite: Suite) -> None:
    session = suite.open_session(suite.tasks[0])
    DOMAIN.tools.call(session, "withdraw", {"member_id": "MEM-1", "course": "pottery"})
    [change] = [c for c in session.effects().changes if c.table == "enrolments"]
    assert (change.kind, change.key, change.after["status"]) == ("update", ["MEM-1", "pottery"], "withdrawn")


def test_numbers_within_the_field_tolerance_are_the_same_value(suite: Suite) -> None:
    task = suite.tasks[0]
    session = suite.open_session(task)
    DOMAIN.tools.call(session, "withdraw", {"member_id": "MEM-1", "course": "pottery"})
    required = [session.effects()]
    near = session.effects().model_copy(deep=True)
    near.changes[0].after["fee"] += 0.004  # type: ignore[index]
    far = session.effects().model_copy(deep=True)
    far.changes[0].after["fee"] += 0.01  # type: ignore[index]
    rules = rules_for(suite, task)
    assert judge_attempt(near, required, rules).passed
    assert [d.field for d in judge_attempt(far, required, rules).discrepancies] == ["fee"]


@pytest.mark.parametrize("typed", ["22 Acacia Ave", "22 acacia avenue.", " 22  ACACIA  Av "])
def test_a_dictated_street_passes_however_it_is_abbreviated_or_cased(suite: Suite, typed: str) -> None:
    task = suite.task("verified_street_change")
    required = required_effects(suite, task)
    session = suite.open_session(task)
    for call in task.reference:
        tools = DOMAIN.customer_tools if call.actor == "customer" else DOMAIN.tools
        args = {**call.args, "street": typed} if call.tool == "change_street" else call.args
        assert not tools.call(session, call.tool, args).is_error
    verdict = judge_attempt(session.effects(), required, rules_for(suite, task))
    assert verdict.passed, verdict.discrepancies


def test_a_task_with_a_customer_action_validates(suite: Suite) -> None:
    result = validate_task(suite, suite.task("verified_street_change"))
    assert result.ok, result.problems
    assert result.writes == 3  # the customer's read is not the agent's write


def test_validation_names_a_fact_whose_value_is_not_what_the_action_shows(suite: Suite) -> None:
    task = suite.task("verified_street_change")
    facts = [f.model_copy(update={"value": "123456"}) if f.key == "sms_code" else f for f in task.customer.facts]
    broken = task.model_copy(update={"customer": task.customer.model_copy(update={"facts": facts})})
    problems = validate_task(suite, broken).problems
    assert any("'sms_code'" in p and "is not what read_phone_messages shows" in p for p in problems), problems


def test_the_scripted_customer_reads_the_code_only_once_it_was_sent(suite: Suite) -> None:
    task = suite.task("verified_street_change")
    session = suite.open_session(task)
    customer = ScriptedCustomer(task.customer)
    phone = BoundTools(DOMAIN.customer_tools, session)
    before = customer.answer("What is the code we texted you?", actions=phone)
    assert "don't have my code yet" in before.text and "870706" not in before.text
    DOMAIN.tools.call(session, "send_verification_code", {"member_id": "MEM-1"})
    after = customer.answer("What is the code we texted you?", actions=phone)
    assert after.text == "My code is 870706."
