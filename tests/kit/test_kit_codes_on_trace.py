"""Codes judged on the trace: the code records are not judged, a verify_before check makes the calls needed."""

from __future__ import annotations

from typing import Any

import pytest

from kitdemo import HERE as KITDEMO, NOW, change_street, seed, withdraw
from statebox.judge.validation import validate_task
from statebox.kit import DomainRules, OwnWorld, Party, build_domain, customer_side
from statebox.suites import Suite
from statebox.tasks import Task
from statebox.world import TableSpec

DOMAIN = build_domain(
    KITDEMO, name="kitcodes", description="kit demo with codes judged on the trace",
    world=OwnWorld(NOW, seed, [TableSpec("enrolments", primary_key=("member_id", "course"))]),
    tools=[change_street, withdraw],
    components=[customer_side(owner=Party("members", "MEM", "member_id"), codes_judged_on="trace")],
    rules=DomainRules(trace_checks=[]),
)
CODE = "870706"


def task(checks: list[dict[str, Any]]) -> Task:
    return Task.model_validate({
        "id": "withdraw_after_code", "domain": "kitcodes", "opening_message": "Please take me off pottery.",
        "customer": {"goal": "Leave the pottery course.", "facts": [
            {"key": "member_id", "value": "MEM-1", "asked_by": ["member id"]},
            {"key": "sms_code", "value": CODE, "asked_by": ["code"],
             "via": {"tool": "read_phone_messages", "args": {"member_id": "MEM-1"}}}]},
        "reference": [
            {"tool": "send_verification_code", "args": {"member_id": "MEM-1"}},
            {"actor": "customer", "tool": "read_phone_messages", "args": {"member_id": "MEM-1"}},
            {"tool": "check_verification_code", "args": {"member_id": "MEM-1", "code": CODE}},
            {"tool": "withdraw", "args": {"member_id": "MEM-1", "course": "pottery"}},
        ],
        "checks": checks,
    })


def suite_of(t: Task) -> Suite:
    return Suite("kitcodes", [t], {"kitcodes": DOMAIN})


def test_with_a_verify_before_check_the_code_calls_are_needed_and_the_task_is_valid() -> None:
    t = task([{"kind": "verify_before", "tools": ["withdraw"], "verified_by": ["check_verification_code"]}])
    result = validate_task(suite_of(t), t)
    assert result.ok, result.problems


def test_without_a_check_the_validator_says_the_code_calls_are_not_needed() -> None:
    t = task([])
    problems = validate_task(suite_of(t), t).problems
    # sending stays needed (without it the customer has no code to read); the check is not
    assert problems == ["reference call(s) not needed by the judge: 2 (check_verification_code)"]


def test_an_unknown_way_of_judging_codes_is_refused() -> None:
    with pytest.raises(ValueError, match="codes_judged_on"):
        customer_side(codes_judged_on="both")
