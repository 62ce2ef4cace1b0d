"""The one policy search: SQLite FTS5 ranked by bm25, tolerant of a one-letter typo in any word.

Every built-in domain indexes its policy's sections in its world database; ThinkingBox-Bench
indexes a scenario's policy snippets in a private in-memory database. Both search through
`search_index`, so a typo is handled the same way everywhere.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

from statebox.tools.decorator import Tool, tool
from statebox.tools.errors import NotFound
from statebox.world import Session

INDEX_DDL = """
CREATE VIRTUAL TABLE IF NOT EXISTS policy_fts USING fts5(
    source UNINDEXED, section UNINDEXED, title, body, tokenize = 'unicode61');
CREATE VIRTUAL TABLE IF NOT EXISTS policy_fts_vocab USING fts5vocab(policy_fts, 'row');
"""
MIN_TYPO_LENGTH = 4  # shorter words have too many neighbours one edit away
EXCERPT_CHARS = 1800
_HEADING = re.compile(r"^## (\d+)\. (.+)$", re.MULTILINE)
_WORD = re.compile(r"[^\W_]+")  # letters and digits, as the unicode61 tokenizer splits them
# FTS5's operator words: in a user's text they are syntax someone pasted, never what they look for.
_OPERATORS = frozenset({"and", "or", "not", "near"})


@dataclass(frozen=True)
class PolicyEntry:
    """One searchable piece of policy: a numbered section of a domain, or a snippet of a document."""

    source: str  # the document it comes from
    section: str  # its number or position
    title: str
    body: str


@dataclass(frozen=True)
class PolicyHit:
    entry: PolicyEntry
    score: float  # bm25, higher is better (SQLite's sign flipped)


def policy_sections(policy: str, source: str = "policy") -> list[PolicyEntry]:
    """Every '## N. Title' section of a markdown policy, with its body."""
    heads = list(_HEADING.finditer(policy))
    out = []
    for i, h in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(policy)
        out.append(PolicyEntry(source, h.group(1), h.group(2).strip(), policy[h.end() : end].strip()))
    return out


def create_index(conn: sqlite3.Connection, entries: Iterable[PolicyEntry]) -> None:
    """Create the index tables (once) and add the entries."""
    conn.executescript(INDEX_DDL)
    add_entries(conn, entries)


def add_entries(conn: sqlite3.Connection, entries: Iterable[PolicyEntry]) -> None:
    """Add entries to an index whose tables exist (INDEX_DDL), inside the caller's transaction."""
    conn.executemany(
        "INSERT INTO policy_fts (source, section, title, body) VALUES (?, ?, ?, ?)",
        [(e.source, e.section, e.title, e.body) for e in entries],
    )


def vocabulary(conn: sqlite3.Connection) -> set[str]:
    return {term for (term,) in conn.execute("SELECT term FROM policy_fts_vocab")}


def within_one_edit(a: str, b: str) -> bool:
    """True when b is a, or a with one letter changed, added, removed, or two neighbours swapped."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        i = diff[0]
        return len(diff) == 2 and diff[1] == i + 1 and a[i] == b[i + 1] and a[i + 1] == b[i]
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1 :]


def corrections(word: str, words: set[str]) -> list[str]:
    """Vocabulary words one edit away from a word that is not in the vocabulary (long words only)."""
    if len(word) < MIN_TYPO_LENGTH:
        return []
    return sorted(v for v in words if abs(len(v) - len(word)) <= 1 and within_one_edit(word, v))


def expand_terms(query_words: list[str], words: set[str]) -> list[str]:
    """Known words as they are; unknown words replaced by the vocabulary words one edit away."""
    terms: list[str] = []
    for w in query_words:
        terms += [w] if w in words else corrections(w, words)
    return list(dict.fromkeys(terms))


def match_expression(query: str, words: set[str]) -> str:
    """The FTS5 query for a user's text: any term may match; long terms also match as prefixes.

    Every term is quoted, so FTS syntax in the user's text is never interpreted.
    """
    terms = expand_terms([w for w in (w.lower() for w in _WORD.findall(query)) if w not in _OPERATORS], words)
    return " OR ".join(f'"{t}"*' if len(t) >= MIN_TYPO_LENGTH else f'"{t}"' for t in terms)


def search_index(conn: sqlite3.Connection, query: str, limit: int = 3) -> list[PolicyHit]:
    """The best entries for a query, best first; [] when no word (or near word) is known."""
    expression = match_expression(query, vocabulary(conn))
    if not expression:
        return []
    found = conn.execute(
        "SELECT source, section, title, body, bm25(policy_fts, 0.0, 0.0, 10.0, 1.0) FROM policy_fts "
        "WHERE policy_fts MATCH ? ORDER BY bm25(policy_fts, 0.0, 0.0, 10.0, 1.0) LIMIT ?",
        (expression, max(1, limit)),
    )
    return [PolicyHit(PolicyEntry(s, n, t, b), -rank) for s, n, t, b, rank in found]


def excerpt(body: str, limit: int = EXCERPT_CHARS) -> str:
    return body if len(body) <= limit else body[:limit].rsplit(" ", 1)[0] + " …"


def search_policy_tool(examples: str = "'refund', 'cancel', 'verify identity'") -> Tool:
    """The `search_policy` tool of a built-in domain (its policy indexed in the world database)."""

    @tool(writes=False, name="search_policy")
    def search_policy(db: Session, query: str) -> list[dict[str, str]]:
        """Search the support policy; returns the 3 best-matching sections with their text.

        Args:
            query: a few words, e.g. "refund window" or "verify identity"
        """
        hits = search_index(db.db, query, 3)
        if not hits:
            shown = query if len(query) <= 60 else query[:60] + "…"
            raise NotFound(f"no policy section matches {shown!r}.", hint=f"try other words, e.g. {examples}.")
        return [{"section": h.entry.section, "title": h.entry.title, "text": excerpt(h.entry.body)} for h in hits]

    return search_policy
