"""Whether a customer's confirmation names a write: a word of it is a word of the tool or of an argument.

The simulated customer says yes to a request to confirm that contains one of its `confirms` phrases, and
no to one that contains none; a write under confirm_before that no phrase names can only be made against
the customer's word. "Names" is read loosely: a phrase names `revoke_software_access(grant_id=...)` when
one of its words is `revoke`, `software`, `access` or a word of an argument, inflections aside
(`approve` names `decision: approved`).
"""

from __future__ import annotations

import re
from typing import Any

_WORD = re.compile(r"[a-z0-9]+(?:[./x][a-z0-9]+)*")
_FILLER = frozenset([
    "a", "an", "and", "are", "as", "at", "be", "both", "do", "for", "from", "go", "her", "him", "his", "i",
    "in", "is", "it", "its", "me", "my", "of", "on", "one", "or", "our", "please", "that", "the", "their",
    "them", "then", "they", "this", "to", "too", "us", "we", "with", "yes", "you", "your",
])
_STEM = 4  # two words share a stem when one starts with the other and both are this long or longer


def words(text: str) -> list[str]:
    """Lower-case words and numbers (1,000 as 1000; 25/50/25, 50x30 and 340.55 kept whole)."""
    return _WORD.findall(re.sub(r"(?<=\d),(?=\d{3})", "", text.lower()))


def call_words(tool: str, args: dict[str, Any]) -> set[str]:
    """The words of a call: its tool's name and every scalar argument value."""
    found = set(tool.lower().split("_"))
    for value in scalars(args):
        found.update(words(value))
        found.update(words(value.replace("_", " ")))
    return found


def names(phrase: str, tool: str, args: dict[str, Any]) -> bool:
    """The phrase names the call: one of its meaningful words is a word of the call."""
    mine = call_words(tool, args)
    return any(_same(w, t) for w in words(phrase) if w not in _FILLER for t in mine)


def _same(word: str, other: str) -> bool:
    if word == other:
        return True
    if min(len(word), len(other)) < _STEM or word.isdigit() or other.isdigit():
        return False
    return word.startswith(other) or other.startswith(word) or (word[:5] == other[:5] and len(word) >= 5)


def scalars(value: Any) -> list[str]:
    """Every scalar of a JSON-like value, as text (booleans and nulls left out)."""
    if isinstance(value, dict):
        return [s for v in value.values() for s in scalars(v)]
    if isinstance(value, list):
        return [s for v in value for s in scalars(v)]
    if isinstance(value, bool) or value is None:
        return []
    return [str(value)]
