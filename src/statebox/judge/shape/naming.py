"""Whether a customer's confirmation names a write: a word of it is a word of the tool or of an argument.

The simulated customer says yes to a request to confirm that contains one of its `confirms` phrases, and
no to one that contains none; a write under confirm_before that no phrase names can only be made against
the customer's word. "Names" is read loosely: a phrase names `revoke_software_access(grant_id=...)` when
one of its words is `revoke`, `software`, `access` or a word of an argument, inflections aside
(`approve` names `decision: approved`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from statebox.judge.trace import Event
from statebox.tasks.dialogue import scalars

_WORD = re.compile(r"[a-z0-9]+(?:[./x][a-z0-9]+)*")
_FILLER = frozenset([
    "a", "an", "and", "are", "as", "at", "be", "both", "do", "for", "from", "go", "her", "him", "his", "i",
    "in", "is", "it", "its", "me", "my", "of", "on", "one", "or", "our", "please", "that", "the", "their",
    "them", "then", "they", "this", "to", "too", "us", "we", "with", "yes", "you", "your",
])
_STEM = 4  # an argument word and a phrase word share a stem when one starts with the other, both this long


def words(text: str) -> list[str]:
    """Lower-case words and numbers (1,000 as 1000; 25/50/25, 50x30 and 340.55 kept whole)."""
    return _WORD.findall(re.sub(r"(?<=\d),(?=\d{3})", "", text.lower()))


def names(phrase: str, tool: str, args: dict[str, Any], records: Iterable[str] = ()) -> bool:
    """The phrase names the call: one of its meaningful words is a word of the tool's or an argument's name,
    of an argument's value or of a record the call acts on (`records`: the rows its ids were listed in).

    A word of a name may be shortened to three letters (`pay` names `issue_claim_payment`, `fee` a
    `change_fee`); a word of a value or a record to four.
    """
    mine = [w for w in words(phrase) if w not in _FILLER]
    verbs = [*tool.lower().split("_"), *(w for key in args for w in key.lower().split("_"))]
    values = {v for a in [*scalars(args), *records] for v in [*words(a), *words(a.replace("_", " "))]}
    return any(_same(w, t, 3) for w in mine for t in verbs) or any(_same(w, t, _STEM) for w in mine for t in values)


def _same(word: str, other: str, stem: int) -> bool:
    if word == other:
        return True
    if min(len(word), len(other)) < stem or word.isdigit() or other.isdigit():
        return False
    return word.startswith(other) or other.startswith(word) or (len(word) >= 5 and word[:5] == other[:5])


def records_named(call: Event, trace: Sequence[Event]) -> list[str]:
    """The text of every row an earlier result listed that holds one of the call's identifiers.

    `revoke_software_access(grant_id: ACC-1)` acts on the grant listed as {grant_id: ACC-1, software:
    think-cell, ...}: a confirmation naming think-cell names the revocation.
    """
    ids = {a for a in scalars(call.args) if any(ch.isdigit() for ch in a) and len(a) >= 4}
    found: list[str] = []
    for e in trace:
        if e is call:
            break
        if e.kind == "call" and e.ok and ids:
            found += [t for row in _rows(_json(e.text)) if ids & set(scalars(row)) for t in scalars(row)]
    return found


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _rows(value: Any) -> list[dict[str, Any]]:
    """Every mapping inside a JSON value, with its scalar fields only (nested rows are rows of their own)."""
    if isinstance(value, list):
        return [r for v in value for r in _rows(v)]
    if not isinstance(value, dict):
        return []
    flat = {k: v for k, v in value.items() if not isinstance(v, dict | list)}
    return [flat, *(r for v in value.values() if isinstance(v, dict | list) for r in _rows(v))]
