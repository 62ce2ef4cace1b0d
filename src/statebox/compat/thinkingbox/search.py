"""Embedded policy search: answers `search_policy` from a scenario's `sources` without Typesense.

The project's one policy search (statebox.tools.policy_search) over a private in-memory index of
the scenario's snippets, shaped as the benchmark's server answers.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from statebox.compat.thinkingbox.models import TbPolicySource
from statebox.tools import policy_search
from statebox.tools.policy_search import PolicyEntry

DEFAULT_MAX_RESULTS = 3
MAX_RESULTS_CAP = 10


class PolicyHit(BaseModel):
    """One matching snippet."""

    name: str  # the policy document it comes from
    snippet: str
    score: float  # bm25, higher is better here (SQLite's own sign is flipped)


class PolicySearch:
    """A full-text index over one domain's policy documents; one instance per attempt or domain."""

    def __init__(self, sources: Iterable[TbPolicySource]) -> None:
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        entries = [
            PolicyEntry(source.name, str(i), "", text) for source in sources for i, text in enumerate(source.snippets)
        ]
        policy_search.create_index(self._db, entries)
        self._vocabulary = policy_search.vocabulary(self._db)

    def close(self) -> None:
        self._db.close()

    def search(self, query: str, max_results: int = DEFAULT_MAX_RESULTS) -> list[PolicyHit]:
        """The best snippets for `query`, best first; any word may match (OR), more is better."""
        limit = max(1, min(max_results, MAX_RESULTS_CAP))
        hits = policy_search.search_index(self._db, query, limit)
        return [PolicyHit(name=h.entry.source, snippet=h.entry.body, score=h.score) for h in hits]

    def match_expression(self, query: str) -> str:
        return policy_search.match_expression(query, self._vocabulary)

    def corrections(self, word: str) -> list[str]:
        return policy_search.corrections(word, self._vocabulary)

    def tool_result(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """The answer to a `search_policy(query, max_results)` call, shaped like the server's."""
        query = arguments.get("query")
        if not isinstance(query, str) or not query.strip():
            return {"error": "query must be a non-empty string"}
        max_results = arguments.get("max_results") or DEFAULT_MAX_RESULTS
        if not isinstance(max_results, int) or max_results < 1:
            max_results = DEFAULT_MAX_RESULTS
        hits = self.search(query, max_results)
        return {"snippets": [hit.model_dump() for hit in hits]}
