"""The domain kit: components compose into a domain whose tools behave as the policy says."""

from __future__ import annotations

from typing import Any

import pytest

from kitdemo import DOMAIN, HERE as KITDEMO, NOW, seed
from statebox.kit import OwnWorld, build_domain, helpdesk
from statebox.suites import Suite
from statebox.world import Session


def call(session: Session, name: str, **args: Any) -> Any:
    outcome = DOMAIN.tools.call(session, name, args)
    assert not outcome.is_error, outcome.text
    return outcome.data


def test_a_domain_gets_every_component_tool_and_the_policy_search() -> None:
    assert {"create_ticket", "list_member_tickets", "send_email", "handoff_to_human", "send_verification_code",
            "check_verification_code", "search_policy"} <= set(DOMAIN.tools.names)
    assert DOMAIN.customer_tools.names == ["read_phone_messages", "upload_document"]


def test_two_components_declaring_one_table_are_refused(tmp_path: Any) -> None:
    with pytest.raises(ValueError, match="table 'tickets' is declared twice"):
        build_domain(KITDEMO, name="x", description="", world=OwnWorld(NOW, seed), tools=[],
                     components=[helpdesk(), helpdesk()])


def test_configured_tools_take_the_domain_s_argument_names_and_choices() -> None:
    schema = DOMAIN.tools["update_ticket_status"].spec.input_schema
    assert schema["properties"]["status"]["enum"] == ["open", "pending", "hold", "solved"]
    assert "member_id" in DOMAIN.tools["create_ticket"].spec.input_schema["required"]


def test_a_ticket_on_hold_needs_a_hold_reason_from_the_domain_s_list(suite: Suite) -> None:
    session = suite.open_session(suite.tasks[0])
    ticket = call(session, "create_ticket", member_id="MEM-1", subject="s", description="d")
    refused = DOMAIN.tools.call(session, "update_ticket_status", {"ticket_id": ticket["ticket_id"], "status": "hold"})
    assert refused.is_error and "hold_reason" in refused.text
    wrong = DOMAIN.tools.call(session, "update_ticket_status",
                              {"ticket_id": ticket["ticket_id"], "status": "hold", "hold_reason": "carrier"})
    assert wrong.is_error and wrong.error_kind == "invalid_arguments"
    held = call(session, "update_ticket_status", ticket_id=ticket["ticket_id"], status="hold", hold_reason="registrar")
    assert held["status"] == "hold"


def test_a_handoff_sets_the_status_the_domain_chose(suite: Suite) -> None:
    session = suite.open_session(suite.tasks[0])
    ticket = call(session, "create_ticket", member_id="MEM-1", subject="s", description="d")
    out = call(session, "handoff_to_human", ticket_id=ticket["ticket_id"], team="security", summary="failed checks")
    assert out["ticket_status"] == "hold"
    assert session.one("SELECT status FROM tickets WHERE id = ?", ticket["ticket_id"]) == {"status": "hold"}


def test_the_agent_never_sees_the_code_and_the_customer_reads_it_on_their_phone(suite: Suite) -> None:
    session = suite.open_session(suite.tasks[0])
    sent = DOMAIN.tools.call(session, "send_verification_code", {"member_id": "MEM-1"})
    code = session.one("SELECT code FROM verification_codes")["code"]  # type: ignore[index]
    assert code not in sent.text
    phone = DOMAIN.customer_tools.call(session, "read_phone_messages", {"member_id": "MEM-1"})
    assert code in phone.text


def test_three_wrong_codes_void_the_code_and_nothing_is_verified(suite: Suite) -> None:
    session = suite.open_session(suite.tasks[0])
    call(session, "send_verification_code", member_id="MEM-1")
    answers = [call(session, "check_verification_code", member_id="MEM-1", code="000000") for _ in range(3)]
    assert [a["tries_left"] for a in answers] == [2, 1, 0]
    again = DOMAIN.tools.call(session, "check_verification_code", {"member_id": "MEM-1", "code": "000000"})
    assert again.error_kind == "precondition_failed"
    assert session.one("SELECT status FROM verification_codes") == {"status": "failed"}


def test_a_one_letter_typo_finds_the_right_policy_section_in_the_top_three(suite: Suite) -> None:
    session = suite.open_session(suite.tasks[0])
    for query, title in [("verifying identiy", "Verifying identity"), ("adress change", "Address changes"),
                         ("corse fees", "Course fees")]:
        titles = [hit["title"] for hit in call(session, "search_policy", query=query)]
        assert title in titles, f"{query!r} found {titles}"


def test_a_code_mistyped_once_then_right_ends_like_a_code_right_first_time(suite: Suite) -> None:
    from statebox.judge import judge_attempt, rules_for

    task = suite.tasks[0]

    def verified(tries: list[str]) -> Any:
        session = suite.open_session(task)
        call(session, "send_verification_code", member_id="MEM-1")
        code = session.one("SELECT code FROM verification_codes")["code"]  # type: ignore[index]
        for t in [*tries, code]:
            call(session, "check_verification_code", member_id="MEM-1", code=t)
        return session.effects()

    assert judge_attempt(verified(["000000"]), [verified([])], rules_for(suite, task)).passed
