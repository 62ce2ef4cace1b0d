"""The simulated customer interface: it sees only the visible conversation, never tool traffic."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Literal

from statebox.agents.transcript import Entry

EndReason = Literal["satisfied", "gave_up", "transferred"]


@dataclass
class CustomerReply:
    text: str
    end_reason: EndReason | None = None  # set when the customer ends the conversation

    @property
    def ended(self) -> bool:
        return self.end_reason is not None


class SimulatedCustomer(ABC):
    """Answers the agent's latest message given the visible conversation so far."""

    name: str = "customer"
    model: str | None = None

    @abstractmethod
    async def reply(self, visible: list[Entry]) -> CustomerReply: ...
