"""Private facts in reference arguments: which a call uses, finding them in what the customer said."""

from __future__ import annotations

import re
from typing import Any

from statebox.tasks import Fact
from statebox.tasks.dialogue import facts_used

__all__ = ["ask_for", "facts_used", "find_in", "substitute"]


def find_in(text: str, fact_value: str) -> str | None:
    """The fact as the customer wrote it (case-insensitive match), or None when it is not there."""
    if not fact_value:
        return None
    match = re.search(re.escape(fact_value), text, re.IGNORECASE)
    return match.group(0) if match else None


def substitute(value: Any, given: dict[str, str]) -> Any:
    """Replace each fact value (key of `given`) in string arguments by what the customer said."""
    if isinstance(value, dict):
        return {k: substitute(v, given) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, given) for v in value]
    if not isinstance(value, str):
        return value
    for known, said in given.items():
        if known and known != said:
            value = re.compile(re.escape(known), re.IGNORECASE).sub(said.replace("\\", "\\\\"), value)
    return value


def ask_for(facts: list[Fact]) -> str:
    """One question asking for every fact, with each fact's first asking phrase."""
    names = [_your(f.asked_by[0]) for f in facts]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"Could you please tell me {listed}?"


def _your(phrase: str) -> str:
    phrase = phrase.strip()
    return phrase if phrase.lower().startswith(("your ", "the ", "a ", "an ")) else f"your {phrase}"
