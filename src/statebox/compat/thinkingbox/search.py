"""Embedded policy search: answers `search_policy` from a scenario's `sources` without Typesense.

SQLite FTS5 in an in-memory database, ranked by bm25. Typo tolerant: a query word that is not
in the index vocabulary is replaced by the vocabulary words within edit distance 1 of it.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from statebox.compat.thinkingbox.models import TbPolicySource

DEFAULT_MAX_RESULTS = 3
MAX_RESULTS_CAP = 10
MIN_TYPO_WORD = 3  # shorter words are too ambiguous to correct
_WORD = re.compile(r"[^\W_]+")  # letters and digits, as the unicode61 tokenizer splits


class PolicyHit(BaseModel):
    """One matching snippet."""

    name: str  # the policy document it comes from
    snippet: str
    score: float  # bm25, higher is better here (SQLite's own sign is flipped)


class PolicySearch:
    """A full-text index over one domain's policy documents; one instance per attempt or domain."""

    def __init__(self, sources: Iterable[TbPolicySource]) -> None:
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute("CREATE VIRTUAL TABLE docs USING fts5(name, snippet, tokenize='unicode61')")
        self._db.execute("CREATE VIRTUAL TABLE vocab USING fts5vocab(docs, 'row')")
        rows = [(source.name, text) for source in sources for text in source.snippets]
        self._db.executemany("INSERT INTO docs(name, snippet) VALUES (?, ?)", rows)
        self._vocabulary = {term for (term,) in self._db.execute("SELECT term FROM vocab")}
        self._alphabet = "".join(sorted({char for term in self._vocabulary for char in term}))

    def close(self) -> None:
        self._db.close()

    def search(self, query: str, max_results: int = DEFAULT_MAX_RESULTS) -> list[PolicyHit]:
        """The best snippets for `query`, best first; any word may match (OR), more is better."""
        expression = self.match_expression(query)
        if not expression:
            return []
        limit = max(1, min(max_results, MAX_RESULTS_CAP))
        found = self._db.execute(
            "SELECT name, snippet, bm25(docs) FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT ?",
            (expression, limit),
        )
        return [PolicyHit(name=name, snippet=snippet, score=-rank) for name, snippet, rank in found]

    def match_expression(self, query: str) -> str:
        """The FTS5 query for a user's text: known words as they are, unknown ones by their neighbours."""
        alternatives: list[str] = []
        for word in dict.fromkeys(word.lower() for word in _WORD.findall(query)):
            terms = [word] if word in self._vocabulary else self.corrections(word)
            alternatives.extend(f'"{term}"' for term in terms)
        return " OR ".join(dict.fromkeys(alternatives))

    def corrections(self, word: str) -> list[str]:
        """Vocabulary words one edit (delete, insert, replace, transpose) away from `word`."""
        if len(word) < MIN_TYPO_WORD:
            return []
        return sorted(_edits1(word, self._alphabet) & self._vocabulary)

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


def _edits1(word: str, alphabet: str) -> set[str]:
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deletes = {left + right[1:] for left, right in splits if right}
    transposes = {left + right[1] + right[0] + right[2:] for left, right in splits if len(right) > 1}
    replaces = {left + char + right[1:] for left, right in splits if right for char in alphabet}
    inserts = {left + char + right for left, right in splits for char in alphabet}
    return (deletes | transposes | replaces | inserts) - {word}
