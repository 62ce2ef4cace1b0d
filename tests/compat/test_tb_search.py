"""Embedded policy search: bm25 over the scenario's sources, tolerant of one-letter typos."""

from __future__ import annotations

import pytest

from statebox.compat.thinkingbox import PolicySearch, TbPolicySource

SOURCES = [
    TbPolicySource(name="Refunds.md", snippets=["Refunds go to the original payment method within five days."]),
    TbPolicySource(
        name="Shipping.md",
        snippets=["Expedited shipping is free for VIP customers.", "Standard shipping takes three to five days."],
    ),
    TbPolicySource(name="Warranty.md", snippets=["A warranty claim needs the product id and a fault description."]),
    TbPolicySource(name="Membership.md", snippets=["Plus membership costs 79 dollars per year."]),
]


@pytest.fixture
def search() -> PolicySearch:
    return PolicySearch(SOURCES)


def test_an_exact_query_ranks_the_right_snippet_first(search: PolicySearch) -> None:
    assert search.search("warranty claim")[0].name == "Warranty.md"


@pytest.mark.parametrize(
    ("query", "expected"),
    [("warrenty claim", "Warranty.md"), ("expedtied shipping", "Shipping.md"), ("refnuds", "Refunds.md"),
     ("membershipp cost", "Membership.md")],
)  # fmt: skip
def test_a_one_letter_typo_still_finds_the_snippet_in_the_top_three(
    search: PolicySearch, query: str, expected: str
) -> None:
    assert expected in [hit.name for hit in search.search(query, 3)]


def test_unknown_words_are_replaced_by_vocabulary_words_one_edit_away(search: PolicySearch) -> None:
    assert search.corrections("warrenty") == ["warranty"]
    assert search.match_expression("Warrenty claim!") == '"warranty"* OR "claim"*'


def test_a_query_with_no_known_or_near_word_finds_nothing(search: PolicySearch) -> None:
    assert search.search("zzzz qqqq") == []


def test_punctuation_and_fts_syntax_in_queries_are_harmless(search: PolicySearch) -> None:
    assert search.search('refund" OR NEAR( "policy* -shipping')[0].name == "Refunds.md"


def test_the_tool_result_lists_snippets_and_clamps_max_results(search: PolicySearch) -> None:
    result = search.tool_result({"query": "shipping days", "max_results": 50})
    assert {hit["name"] for hit in result["snippets"]} >= {"Shipping.md"}
    assert set(result["snippets"][0]) == {"name", "snippet", "score"}
    assert len(search.tool_result({"query": "days", "max_results": 1})["snippets"]) == 1
    assert search.tool_result({"query": " "}) == {"error": "query must be a non-empty string"}
