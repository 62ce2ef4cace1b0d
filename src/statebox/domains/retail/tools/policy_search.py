"""search_policy: full-text search over the policy's sections (SQLite FTS5, bm25), typo tolerant."""

from __future__ import annotations

import re

from statebox.tools import NotFound, tool
from statebox.world import Row, Session

_HEADING = re.compile(r"^## (\d+)\. (.+)$", re.MULTILINE)
_WORD = re.compile(r"[a-z0-9]+")
MIN_TYPO_LENGTH = 4  # shorter words have too many neighbours one edit away
EXCERPT_CHARS = 1800


def policy_sections(policy: str) -> list[tuple[str, str, str]]:
    """(section number, title, body) for every '## N. Title' section of the policy."""
    heads = list(_HEADING.finditer(policy))
    out = []
    for i, h in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(policy)
        out.append((h.group(1), h.group(2).strip(), policy[h.end():end].strip()))
    return out


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
    return short[i:] == long_[i + 1:]


def expand_terms(words: list[str], vocabulary: set[str]) -> list[str]:
    """Known words as they are; unknown words replaced by the vocabulary words one edit away."""
    terms: list[str] = []
    for w in words:
        if w in vocabulary:
            terms.append(w)
        elif len(w) >= MIN_TYPO_LENGTH:
            terms += sorted(v for v in vocabulary if abs(len(v) - len(w)) <= 1 and within_one_edit(w, v))
    return list(dict.fromkeys(terms))


@tool(writes=False)
def search_policy(db: Session, query: str) -> list[Row]:
    """Search the support policy; returns the 3 best-matching sections with their text.

    Args:
        query: a few words, e.g. "return window platinum" or "late delivery compensation"
    """
    vocabulary = {r["term"] for r in db.all("SELECT term FROM policy_fts_vocab")}
    terms = expand_terms(_WORD.findall(query.lower()), vocabulary)
    if not terms:
        raise NotFound(f"no policy section matches {query!r}.",
                       hint="try other words, e.g. 'refund', 'return window', 'warranty', 'ticket hold'.")
    # A prefix query lets "return" also find "returns" and "returned" (the index does not stem).
    match = " OR ".join(f'"{t}"*' if len(t) >= MIN_TYPO_LENGTH else f'"{t}"' for t in terms)
    rows = db.all("SELECT section, title, body FROM policy_fts WHERE policy_fts MATCH ? "
                  "ORDER BY bm25(policy_fts, 0.0, 10.0, 1.0) LIMIT 3", match)
    return [{"section": r["section"], "title": r["title"], "text": _excerpt(r["body"])} for r in rows]


def _excerpt(body: str) -> str:
    return body if len(body) <= EXCERPT_CHARS else body[:EXCERPT_CHARS].rsplit(" ", 1)[0] + " …"
