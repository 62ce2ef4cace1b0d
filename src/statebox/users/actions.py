"""Customer-side actions: when the agent asks for a fact that needs one, the customer performs it first."""

from __future__ import annotations

from dataclasses import dataclass

from statebox.tasks import Customer, Fact
from statebox.users.base import CustomerActions


@dataclass(frozen=True)
class ActionResult:
    fact: Fact
    done: bool
    said: str  # the customer's words: the fact's value, or why they do not have it yet


def asked_for(profile: Customer, message: str) -> list[Fact]:
    """The facts a message asks for, by their asking phrases (case-insensitive)."""
    text = message.lower()
    return [f for f in profile.facts if any(p.lower() in text for p in f.asked_by)]


def perform(fact: Fact, actions: CustomerActions | None) -> ActionResult:
    """Do what the fact needs first (nothing, for a plain fact); the value is said only if it worked."""
    if fact.via is None:
        return ActionResult(fact, True, fact.value)
    if actions is None:
        return ActionResult(fact, False, f"I can't get my {fact.asked_by[0]} right now")
    outcome = actions.call(fact.via.tool, dict(fact.via.args))
    if outcome.is_error:
        return ActionResult(fact, False, f"I don't have my {fact.asked_by[0]} yet ({_plain(outcome.text)})")
    return ActionResult(fact, True, fact.value)


def _plain(error_text: str) -> str:
    """A tool error as the customer would put it: its message, without the kind and the hint."""
    message = error_text.split("): ", 1)[-1].split(" Hint:", 1)[0]
    return message.rstrip(".")
