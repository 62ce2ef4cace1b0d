"""search_policy: bm25 over the policy's sections, tolerant of one-letter typos."""

from __future__ import annotations

import pytest

from statebox.domains.retail import DOMAIN
from statebox.tools.policy_search import expand_terms, within_one_edit
from statebox.world import Session


def top_titles(session: Session, query: str) -> list[str]:
    outcome = DOMAIN.tools.call(session, "search_policy", {"query": query})
    assert not outcome.is_error, outcome.text
    return [r["title"] for r in outcome.data]


@pytest.mark.parametrize(
    ("query", "title"),
    [
        ("warranty", "Warranty"),
        ("warrenty", "Warranty"),
        ("refnud", "Refunds"),
        ("retrun window platinum", "Returns"),
        ("late delivery compensation", "Late delivery compensation"),
        ("lait delivery compensaton", "Late delivery compensation"),
        ("instalation reschedule", "Installation appointments"),
        ("verify identiy", "Verifying identity"),
        ("cancle order", "Cancelling and changing orders"),
        ("ticket hold", "Tickets"),
    ],
)
def test_query_finds_the_right_section_in_the_top_three(retail: Session, query: str, title: str) -> None:
    titles = top_titles(retail, query)
    assert title in titles, f"{query!r} gave {titles}"


def test_results_carry_section_number_title_and_text(retail: Session) -> None:
    [first, *_] = DOMAIN.tools.call(retail, "search_policy", {"query": "restocking fee"}).data
    assert first["section"] == "7" and first["title"] == "Returns"
    assert "restocking fee" in first["text"]


def test_a_query_with_no_known_word_is_not_found_with_a_hint(retail: Session) -> None:
    outcome = DOMAIN.tools.call(retail, "search_policy", {"query": "xyzzy qwrtp"})
    assert outcome.error_kind == "not_found" and "Hint:" in outcome.text


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("refund", "refund", True),
        ("refnud", "refund", True),   # two neighbours swapped
        ("refunf", "refund", True),   # one letter changed
        ("refun", "refund", True),    # one letter missing
        ("reefund", "refund", True),  # one letter added
        ("rfnud", "refund", False),
        ("refudn", "refund", True),
        ("fernud", "refund", False),
    ],
)
def test_within_one_edit(a: str, b: str, expected: bool) -> None:
    assert within_one_edit(a, b) is expected
    assert within_one_edit(b, a) is expected


def test_unknown_words_expand_to_vocabulary_neighbours_and_short_words_do_not() -> None:
    vocabulary = {"warranty", "refund", "fee", "fees"}
    assert expand_terms(["warrenty", "refund"], vocabulary) == ["warranty", "refund"]
    assert expand_terms(["fex"], vocabulary) == []
