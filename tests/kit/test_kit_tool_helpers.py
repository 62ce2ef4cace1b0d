"""The kit's helpers for tools: a lookup of ids without a short form, a query's row or NotFound, and a domain's
tools gathered from its area modules in the order they are offered."""

from __future__ import annotations

from types import ModuleType

import pytest

from kitdemo import DOMAIN
from statebox.kit import found, lookup, tools_of
from statebox.tools import NotFound
from statebox.world import Session

AREA = '''
from statebox.tools import tool

@tool(writes=False)
def {first}(db) -> str:
    """The first tool of the area."""
    return "{first}"

def helper() -> None:
    """Not a tool."""

@tool(writes=True)
def {second}(db) -> str:
    """The second tool of the area."""
    return "{second}"
'''


def area(name: str, source: str, **imported: object) -> ModuleType:
    """A module named `name` that runs `source` (its tools are its own) and then holds `imported`."""
    module = ModuleType(name)
    exec(source, module.__dict__)
    module.__dict__.update(imported)
    return module


def test_a_lookup_without_a_prefix_only_trims_and_upper_cases_the_id() -> None:
    session = Session(DOMAIN.build_snapshot())
    member_row = lookup("members", None, "member ids look like MEM-1.")
    assert member_row(session, " mem-1 ")["name"] == "Ada Byron"
    with pytest.raises(NotFound) as missing:
        member_row(session, " 1 ")  # a number alone is not short for MEM-1 here
    assert str(missing.value) == "no member with id '1'."


def test_found_gives_the_row_a_query_found() -> None:
    assert found({"id": "X-1"}, "no X.") == {"id": "X-1"}


def test_found_raises_not_found_with_the_message_and_hint_when_the_query_found_nothing() -> None:
    with pytest.raises(NotFound) as missing:
        found(None, "no promotion code 'SPRING'.", "ask the customer to spell the code.")
    assert (missing.value.message, missing.value.hint) == ("no promotion code 'SPRING'.",
                                                           "ask the customer to spell the code.")


def test_tools_of_lists_area_by_area_each_module_s_tools_in_the_order_it_defines_them() -> None:
    orders = area("shop.orders", AREA.format(first="get_order", second="cancel_order"))
    people = area("shop.people", AREA.format(first="find_person", second="update_person"))
    assert [t.name for t in tools_of(people, orders)] == ["find_person", "update_person", "get_order", "cancel_order"]


def test_tools_of_leaves_a_tool_to_the_module_that_defines_it() -> None:
    orders = area("shop.orders", AREA.format(first="get_order", second="cancel_order"))
    people = area("shop.people", AREA.format(first="find_person", second="update_person"), get_order=orders.get_order)
    assert [t.name for t in tools_of(people)] == ["find_person", "update_person"]


def test_tools_of_refuses_a_module_that_defines_no_tool() -> None:
    with pytest.raises(ValueError, match=r"^module shop\.common defines no tool$"):
        tools_of(area("shop.common", "VALUE = 1"))
