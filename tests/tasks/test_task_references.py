"""${name.field} in reference arguments: results of earlier calls, resolved before each call."""

from __future__ import annotations

import pytest

from statebox.tasks.references import ReferenceResolutionError, references_in, resolve

SAVED = {"ticket": {"id": "T-100", "n": 3, "tags": ["a", "b"], "items": [{"sku": "X1"}]}, "plain": "text"}


def test_a_whole_string_reference_keeps_the_values_type():
    assert resolve("${ticket.n}", SAVED) == 3
    assert resolve("${ticket.tags}", SAVED) == ["a", "b"]
    assert resolve("${ticket}", SAVED) is SAVED["ticket"]


def test_an_embedded_reference_is_formatted_into_the_string():
    assert resolve("see ${ticket.id} (${ticket.n} items)", SAVED) == "see T-100 (3 items)"


def test_references_resolve_inside_nested_arguments():
    args = {"ticket_id": "${ticket.id}", "lines": [{"sku": "${ticket.items[0].sku}"}], "qty": 2}
    assert resolve(args, SAVED) == {"ticket_id": "T-100", "lines": [{"sku": "X1"}], "qty": 2}


def test_values_without_references_are_left_alone():
    args = {"a": "plain $ sign", "b": 1.5, "c": None, "d": "{not.a.ref}"}
    assert resolve(args, SAVED) == args


def test_a_reference_to_an_unsaved_name_is_an_error_naming_it():
    with pytest.raises(ReferenceResolutionError, match=r"\$\{order\.id\}: no earlier call saved as 'order'"):
        resolve({"x": "${order.id}"}, SAVED)


def test_a_reference_to_a_missing_field_is_an_error_naming_it():
    with pytest.raises(ReferenceResolutionError, match=r"\$\{ticket\.status\}: 'status' not in the saved result"):
        resolve("${ticket.status}", SAVED)


def test_an_index_past_the_end_is_an_error():
    with pytest.raises(ReferenceResolutionError, match="not in the saved result"):
        resolve("${ticket.items[3].sku}", SAVED)


def test_references_in_lists_the_names_used():
    assert references_in({"a": "${ticket.id}", "b": ["${plain}", "x ${ticket.n}"], "c": 1}) == {"ticket", "plain"}
    assert references_in({}) == set()
