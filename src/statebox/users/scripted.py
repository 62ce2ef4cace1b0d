"""A deterministic customer for tests and demos: answers only what it is asked, from its facts."""

from __future__ import annotations

import re

from statebox.agents.transcript import Entry
from statebox.tasks import Customer
from statebox.users.base import CustomerReply, SimulatedCustomer

_CONFIRM = re.compile(
    r"\b(confirm|shall i|should i|would you like me to|do you want me to|may i|can i go ahead|"
    r"is that (right|correct)|proceed)\b",
    re.I,
)
UNKNOWN = "I don't have that information."


class ScriptedCustomer(SimulatedCustomer):
    """Facts are released only when a message asks for them by one of their phrases."""

    name = "scripted"

    def __init__(self, profile: Customer, max_unknown: int = 3) -> None:
        self.profile = profile
        self.max_unknown = max_unknown

    async def reply(self, visible: list[Entry]) -> CustomerReply:
        return self.answer(visible[-1].content if visible else "", self._unknown_streak(visible))

    def answer(self, message: str, unknown_streak: int = 0) -> CustomerReply:
        text = message.lower()
        asked = [f for f in self.profile.facts if any(p.lower() in text for p in f.asked_by)]
        if asked:
            return CustomerReply(" ".join(f"My {f.asked_by[0]} is {f.value}." for f in asked))
        if any(_CONFIRM.search(q) for q in _questions(message)):
            goal_words = [c.lower() for c in self.profile.confirms]
            if not goal_words or any(w in text for w in goal_words):
                return CustomerReply("Yes, please go ahead.")
            return CustomerReply("No, that is not what I asked for.")
        if "?" in message:
            if unknown_streak + 1 >= self.max_unknown:
                return CustomerReply(UNKNOWN, end_reason="gave_up")
            return CustomerReply(UNKNOWN)
        return CustomerReply("Thank you, that's all.", end_reason="satisfied")

    @staticmethod
    def _unknown_streak(visible: list[Entry]) -> int:
        streak = 0
        for e in reversed(visible):
            if e.role != "customer":
                continue
            if e.content != UNKNOWN:
                break
            streak += 1
        return streak


def _questions(message: str) -> list[str]:
    """The sentences of a message that ask something (end with a question mark)."""
    sentences = re.split(r"(?<=[.!?])\s+", message.strip())
    return [s for s in sentences if s.rstrip().endswith("?")]
