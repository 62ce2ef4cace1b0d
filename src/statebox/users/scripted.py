"""A deterministic customer for tests and demos: answers only what it is asked, from its facts."""

from __future__ import annotations

from statebox.agents.transcript import Entry
from statebox.tasks import Customer
from statebox.tasks.dialogue import asks_to_confirm, questions
from statebox.users.actions import ActionResult, asked_for, perform
from statebox.users.base import CustomerActions, CustomerReply, SimulatedCustomer

UNKNOWN = "I don't have that information."


class ScriptedCustomer(SimulatedCustomer):
    """Facts are released only when a message asks for them by one of their phrases."""

    name = "scripted"

    def __init__(self, profile: Customer, max_unknown: int = 3) -> None:
        self.profile = profile
        self.max_unknown = max_unknown

    async def reply(self, visible: list[Entry], actions: CustomerActions | None = None) -> CustomerReply:
        return self.answer(visible[-1].content if visible else "", self._unknown_streak(visible), actions)

    def answer(
        self, message: str, unknown_streak: int = 0, actions: CustomerActions | None = None
    ) -> CustomerReply:
        asked = asked_for(self.profile, message)
        stated = " ".join(_say(perform(f, actions)) for f in asked)
        confirmation = self._confirmation(message)
        if confirmation is not None:
            return CustomerReply(f"{stated} {confirmation}".strip())
        if asked:
            return CustomerReply(stated)
        if "?" in message:
            if unknown_streak + 1 >= self.max_unknown:
                return CustomerReply(UNKNOWN, end_reason="gave_up")
            return CustomerReply(UNKNOWN)
        if not self.profile.may_end_satisfied:  # the request cannot be met: accept the answer, not be pleased
            return CustomerReply("I understand. That's all, then.", end_reason="gave_up")
        return CustomerReply("Thank you, that's all.", end_reason="satisfied")

    def _confirmation(self, message: str) -> str | None:
        """The answer to a request to confirm, if the message makes one.

        A question naming one of the requests the customer confirms is one; so is a question with a
        confirmation cue that asks for none of the customer's facts ("Can you confirm your email?"
        asks for a fact).
        """
        goals = [c.lower() for c in self.profile.confirms]
        for q in questions(message):
            if any(g in q.lower() for g in goals):
                return "Yes, please go ahead."
            if asks_to_confirm(q) and not asked_for(self.profile, q):
                return "No, that is not what I asked for." if goals else "Yes, please go ahead."
        return None

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


def _say(result: ActionResult) -> str:
    if result.done:
        return f"My {result.fact.asked_by[0]} is {result.said}."
    return result.said + "."
