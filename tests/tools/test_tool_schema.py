"""@tool: a typed function becomes a tool whose JSON Schema comes from its hints and docstring."""

from __future__ import annotations

from typing import Annotated, Literal

import pytest
from pydantic import Field

from minidomain import create_ticket, get_ticket, update_ticket
from statebox.tools import tool
from statebox.world import Session


def test_name_and_description_come_from_the_function():
    assert create_ticket.name == "create_ticket"
    assert create_ticket.spec.description == "Open a new ticket for a customer."


def test_a_multi_line_summary_is_joined_into_one_description():
    @tool(writes=False)
    def f(session: Session) -> None:
        """First line
        continues here.

        Second paragraph.
        """

    assert f.spec.description == "First line continues here. Second paragraph."


def test_the_tool_name_can_be_overridden():
    @tool(writes=False, name="lookup")
    def f(session: Session) -> None:
        """Look up."""

    assert f.name == "lookup"


def test_every_argument_is_listed_as_required_and_the_optional_ones_accept_null():
    schema = create_ticket.spec.input_schema
    assert schema["required"] == ["customer_id", "subject", "description", "priority"]
    assert schema["properties"]["subject"]["type"] == "string"
    assert schema["properties"]["description"]["type"] == ["string", "null"]
    assert create_ticket.defaults == {"description": "", "priority": "normal"}


def test_the_session_parameter_is_not_an_argument():
    assert "session" not in get_ticket.spec.input_schema["properties"]


def test_python_types_map_to_json_types():
    @tool(writes=False)
    def f(session: Session, n: int, x: float, flag: bool, names: list[str]) -> None:
        """Types."""

    props = f.spec.input_schema["properties"]
    assert {k: v["type"] for k, v in props.items()} == {
        "n": "integer",
        "x": "number",
        "flag": "boolean",
        "names": "array",
    }
    assert props["names"]["items"] == {"type": "string"}


def test_a_literal_becomes_an_enum_and_a_default_is_said_in_the_description():
    assert create_ticket.spec.input_schema["properties"]["priority"] == {
        "anyOf": [{"enum": ["low", "normal", "high"], "type": "string"}, {"type": "null"}],
        "description": 'How urgent the problem is. (Default: "normal".)',
    }


def test_an_optional_literal_allows_null():
    status = update_ticket.spec.input_schema["properties"]["status"]
    assert status["anyOf"] == [{"enum": ["open", "pending", "hold", "solved"], "type": "string"}, {"type": "null"}]
    assert "default" not in status
    assert update_ticket.defaults["status"] is None


def test_argument_descriptions_come_from_the_args_section():
    props = create_ticket.spec.input_schema["properties"]
    assert {k: v.get("description") for k, v in props.items()} == {
        "customer_id": "The customer's id, like CU-1.",
        "subject": "One line saying what the problem is.",
        "description": 'The problem in the customer\'s words. (Default: "".)',
        "priority": 'How urgent the problem is. (Default: "normal".)',
    }


EmployeeId = Annotated[str, Field(description="the employee id")]


def test_a_type_that_carries_a_description_describes_the_argument_as_an_args_line_would():
    @tool(writes=False)
    def by_type(session: Session, employee_id: EmployeeId, days: Annotated[int, Field(description="how many")] = 1):
        """F."""

    @tool(writes=False)
    def by_docstring(session: Session, employee_id: str, days: int = 1):
        """F.

        Args:
            employee_id: the employee id
            days: how many
        """

    assert by_type.spec.input_schema == by_docstring.spec.input_schema
    assert by_type.spec.input_schema["properties"]["employee_id"] == {"type": "string",
                                                                      "description": "the employee id"}
    assert by_type.defaults == by_docstring.defaults == {"days": 1}


def test_an_args_line_describes_its_tools_argument_rather_than_the_type():
    @tool(writes=False)
    def f(session: Session, employee_id: EmployeeId) -> None:
        """F.

        Args:
            employee_id: who the device is for
        """

    assert f.spec.input_schema["properties"]["employee_id"]["description"] == "who the device is for"


def test_an_argument_description_may_continue_on_the_next_line():
    @tool(writes=False)
    def f(session: Session, a: int) -> None:
        """F.

        Args:
            a: starts here
                and ends here.
        """

    assert f.spec.input_schema["properties"]["a"]["description"] == "starts here and ends here."


def test_a_returns_section_is_not_part_of_the_last_arguments_description():
    @tool(writes=False)
    def f(session: Session, a: int) -> int:
        """F.

        Args:
            a: the a.

        Returns:
            the answer.
        """

    assert f.spec.input_schema["properties"]["a"]["description"] == "the a."


def test_unknown_arguments_are_not_allowed():
    assert create_ticket.spec.input_schema["additionalProperties"] is False


def test_the_decorator_marks_whether_a_tool_changes_state():
    assert create_ticket.writes and not get_ticket.writes
    assert create_ticket.spec.writes and not get_ticket.spec.writes


def test_an_argument_without_a_type_hint_is_refused_at_definition():
    with pytest.raises(TypeError, match="argument 'x' needs a type hint"):

        @tool(writes=False)
        def f(session: Session, x) -> None:  # type: ignore[no-untyped-def]
            """F."""


def test_defaults_are_applied_when_the_agent_leaves_an_argument_out():
    @tool(writes=False)
    def f(session: Session, mode: Literal["a", "b"] = "b") -> str:
        """F."""
        return mode

    assert f.defaults == {"mode": "b"}
