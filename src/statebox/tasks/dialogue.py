"""Conversation cues both sides read the same way: a request to confirm, an agreement, a question for a fact.

The scripted customer answers by these rules and the trace checks judge by them, so a
compliant agent and the judge never disagree about what was asked.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from statebox.tasks.checks import ConfirmBefore, VerifyBefore
from statebox.tasks.model import Fact, Task

_CONFIRM = re.compile(
    r"\b(confirm|shall i|should i|would you like me to|do you want me to|may i|can i go ahead|"
    r"is that (right|correct)|proceed)\b",
    re.I,
)
_AGREE = re.compile(
    r"^\W*(yes|yeah|yep|sure|ok(ay)?|please do|please go ahead|go ahead|that's (right|correct)|correct|"
    r"confirmed|i confirm|absolutely|do it)\b",
    re.I,
)


def questions(message: str) -> list[str]:
    """The sentences of a message that ask something (end with a question mark)."""
    sentences = re.split(r"(?<=[.!?])\s+", message.strip())
    return [s for s in sentences if s.rstrip().endswith("?")]


def asks_to_confirm(message: str) -> bool:
    """A question asking the customer to confirm before something is done."""
    return any(_CONFIRM.search(q) for q in questions(message))


def agrees(message: str) -> bool:
    """A reply with a sentence that says yes (it may also answer something else first)."""
    sentences = re.split(r"(?<=[.!?])\s+", message.strip())
    return any(_AGREE.search(s) is not None for s in sentences)


def asks_for(fact: Fact, message: str) -> bool:
    """The message asks for this fact by one of its phrases (case-insensitive)."""
    text = message.lower()
    return any(p.lower() in text for p in fact.asked_by)


def states(fact: Fact, message: str) -> bool:
    """The message contains the fact's value: case aside, a date also spelled out, a phone number in any grouping."""
    if not fact.value:
        return False
    text = message.lower()
    if fact.value.lower() in text:
        return True
    return any(way in text for way in _other_ways(fact.value))


def _other_ways(value: str) -> list[str]:
    """How people also write a date (2 April 1954, April 2, 1954) or a phone number (its digits)."""
    try:
        day = date.fromisoformat(value.strip())
    except ValueError:
        digits = re.sub(r"\D", "", value)
        return [] if len(digits) < 7 or not re.fullmatch(r"[+\d\s().-]+", value) else [digits]
    month = day.strftime("%B").lower()
    return [f"{day.day} {month} {day.year}", f"{month} {day.day}, {day.year}", f"{month} {day.day} {day.year}",
            f"{day.day}th {month} {day.year}"]


def facts_used(value: Any, facts: list[Fact]) -> list[Fact]:
    """Facts whose value an argument equals, or contains as a whole word, in the facts' order."""
    strings = list(scalars(value))
    return [f for f in facts if any(_uses(s, f.value) for s in strings)]


def _uses(argument: str, fact_value: str) -> bool:
    if argument == fact_value:
        return True
    return bool(fact_value) and re.search(rf"(?<!\w){re.escape(fact_value)}(?!\w)", argument) is not None


def scalars(value: Any) -> list[str]:
    """Every scalar of a JSON-like value, as text (booleans and nulls left out)."""
    if isinstance(value, dict):
        return [s for v in value.values() for s in scalars(v)]
    if isinstance(value, list):
        return [s for v in value for s in scalars(v)]
    if isinstance(value, bool) or value is None:
        return []
    return [str(value)]


def prerequisites(task: Task, tool: str, args: Any, known: set[str]) -> tuple[list[Fact], bool]:
    """What a careful agent gets before this call: the facts it needs, and whether to confirm first.

    The facts are those its arguments use plus, where a verify_before check guards the tool, the
    identifying facts that check lists; `known` holds fact values the customer already gave.
    """
    facts = [f for f in facts_used(args, task.customer.facts) if f.value not in known]
    for check in task.checks:
        if isinstance(check, VerifyBefore) and tool in check.tools:
            identifying = [f for f in task.customer.facts if f.key in check.facts]
            facts += [f for f in identifying if f.value not in known and f not in facts]
    confirm = any(isinstance(check, ConfirmBefore) and tool in check.tools for check in task.checks)
    return facts, confirm
