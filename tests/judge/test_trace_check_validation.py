"""Validation covers trace checks: the reference must satisfy each, and a reference that breaks one is caught."""

from __future__ import annotations

import pytest

from kitdemo import DOMAIN
from statebox.judge.validation import validate_task
from statebox.suites import Suite
from statebox.tasks import Task, load_task_dir


@pytest.fixture(scope="module")
def suite() -> Suite:
    return Suite("kitdemo", load_task_dir(DOMAIN.task_dir, "kitdemo"), {"kitdemo": DOMAIN})


def test_the_reference_satisfies_every_check_and_each_check_s_mutant_is_caught(suite: Suite) -> None:
    result = validate_task(suite, suite.task("verified_street_change"))
    assert result.ok, result.problems
    assert [(c.check, c.exercised, c.satisfied, c.mutant_caught) for c in result.checks] == [
        ("verify_before(change_street)", True, True, True),
        ("confirm_before(change_street)", True, True, True),
        ("never(withdraw)", True, True, True),
        ("at_most(send_verification_code, 2)", True, True, True),
    ]


def test_a_reference_that_writes_before_verifying_is_refused(suite: Suite) -> None:
    task = suite.task("verified_street_change")
    unverified = Task.model_validate({
        **task.model_dump(),
        "reference": [{"tool": "withdraw", "args": {"member_id": "MEM-1", "course": "pottery"}}, *[
            c.model_dump() for c in task.reference]],
        "checks": [{"kind": "verify_before", "tools": ["withdraw"], "verified_by": ["check_verification_code"]}],
    })
    assert "the reference violates trace check verify_before(withdraw)" in validate_task(suite, unverified).problems


def test_a_check_naming_an_unknown_tool_is_a_problem(suite: Suite) -> None:
    task = suite.task("verified_street_change")
    bad = Task.model_validate({**task.model_dump(), "checks": [{"kind": "never", "tools": ["no_such_tool"]}]})
    problems = validate_task(suite, bad).problems
    assert "trace check never(no_such_tool) names unknown tool(s) ['no_such_tool']" in problems


def test_a_check_the_reference_never_meets_is_not_exercised_and_not_a_problem(suite: Suite) -> None:
    task = suite.task("verified_street_change")
    other = Task.model_validate({**task.model_dump(), "checks": [{"kind": "confirm_before", "tools": ["withdraw"]}]})
    [check] = validate_task(suite, other).checks
    assert (check.exercised, check.ok) == (False, True)


def test_the_reference_violating_a_read_check_fails_validation(suite: Suite) -> None:
    task = suite.task("verified_street_change")
    strict = Task.model_validate({**task.model_dump(), "checks": [
        {"kind": "read_before", "tools": ["change_street"], "arg": "member_id", "read_tools": ["get_ticket"]}]})
    assert "the reference violates trace check read_before(change_street on member_id)" in validate_task(
        suite, strict).problems
