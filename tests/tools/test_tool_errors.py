"""What an agent sees when a call goes wrong: errors it can recover from, never a crash."""

from __future__ import annotations

import pytest

from minidomain import make_task, mini_suite
from statebox.tools import BoundTools, CallRecord, NotFound, ToolError, Toolset


@pytest.fixture
def bound() -> BoundTools:
    suite = mini_suite()
    task = make_task()
    return BoundTools(suite.domain_of(task).tools, suite.open_session(task))


def test_a_successful_call_returns_its_data_and_compact_json_text(bound):
    outcome = bound.call("create_ticket", {"customer_id": "CU-1", "subject": "Toner"})
    assert not outcome.is_error, outcome.text
    assert outcome.data["id"] == "T-100"
    assert outcome.text.startswith('{"id": "T-100", "customer_id": "CU-1"'), outcome.text


def test_an_unknown_tool_is_an_error_naming_it_and_listing_the_tools(bound):
    outcome = bound.call("close_ticket", {})
    assert (outcome.is_error, outcome.error_kind) == (True, "unknown_tool")
    assert outcome.text == (
        "Error (unknown_tool): Unknown tool 'close_ticket'. Available tools: add_comment, create_ticket, "
        "delete_comment, get_ticket, send_email, update_ticket."
    )


def test_a_missing_argument_is_named(bound):
    outcome = bound.call("create_ticket", {"customer_id": "CU-1"})
    assert outcome.error_kind == "invalid_arguments"
    assert "- missing required argument 'subject'" in outcome.text, outcome.text


def test_a_value_outside_an_enum_names_the_argument_and_the_allowed_values(bound):
    outcome = bound.call("create_ticket", {"customer_id": "CU-1", "subject": "x", "priority": "urgent"})
    assert outcome.text.splitlines()[:2] == [
        "Error (invalid_arguments): Invalid arguments for tool 'create_ticket':",
        '- argument \'priority\' must be one of "low", "normal", "high" or null, got "urgent"',
    ], outcome.text


def test_a_value_of_the_wrong_type_names_the_argument(bound):
    outcome = bound.call("add_comment", {"ticket_id": "T-1", "body": "x", "public": "yes"})
    assert outcome.error_kind == "invalid_arguments"
    assert "- argument 'public' must be boolean or null, got string \"yes\"" in outcome.text, outcome.text


def test_an_unexpected_argument_is_named(bound):
    outcome = bound.call("get_ticket", {"ticket_id": "T-1", "verbose": True})
    assert outcome.error_kind == "invalid_arguments"
    assert "- unknown argument 'verbose' (allowed: ticket_id)" in outcome.text, outcome.text


def test_a_call_with_invalid_arguments_does_not_run(bound):
    bound.call("create_ticket", {"customer_id": "CU-1", "subject": 7})
    assert bound.session.effects().is_empty(), bound.session.effects().to_json()
    assert bound.session.next_id("ticket") == "T-100"


def test_a_lookup_that_finds_nothing_says_so_with_a_hint(bound):
    outcome = bound.call("get_ticket", {"ticket_id": "T-9"})
    assert outcome.error_kind == "not_found"
    assert outcome.text == (
        "Error (not_found): no ticket 'T-9'. "
        "Hint: ticket ids look like T-1; ask the customer for the id in their email."
    )


def test_a_failed_precondition_says_why_and_what_to_do_instead(bound):
    outcome = bound.call("update_ticket", {"ticket_id": "T-3", "status": "open"})
    assert outcome.error_kind == "precondition_failed"
    assert outcome.text == (
        "Error (precondition_failed): ticket T-3 is solved and cannot be reopened. Hint: open a new ticket."
    )


def test_an_error_without_a_hint_has_no_hint_text():
    assert NotFound("no comment 'C-9'.").agent_text() == "Error (not_found): no comment 'C-9'."
    assert ToolError("boom").agent_text() == "Error (tool_error): boom"


def test_bound_tools_log_every_call_with_its_outcome(bound):
    bound.call("get_ticket", {"ticket_id": "T-1"})
    bound.call("update_ticket", {"ticket_id": "T-3", "status": "open"})
    bound.call("nope", {})
    assert bound.log == [
        CallRecord("get_ticket", {"ticket_id": "T-1"}, ok=True, writes=False),
        CallRecord(
            "update_ticket",
            {"ticket_id": "T-3", "status": "open"},
            ok=False,
            writes=True,
            error_kind="precondition_failed",
        ),
        CallRecord("nope", {}, ok=False, writes=False, error_kind="unknown_tool"),
    ]


def test_each_toolset_lists_its_tools_in_order():
    suite = mini_suite()
    tools = suite.domains["mini"].tools
    assert (
        tools.names
        == [s.name for s in tools.specs()]
        == [
            "get_ticket",
            "create_ticket",
            "update_ticket",
            "add_comment",
            "delete_comment",
            "send_email",
        ]
    )
    assert "get_ticket" in tools and "nope" not in tools
    assert Toolset([]).names == []
