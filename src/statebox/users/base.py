"""The simulated customer interface: it sees only the visible conversation, never tool traffic."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Literal

from statebox.agents.transcript import Entry
from statebox.llm.meter import Meter
from statebox.tools.surface import CustomerActions

__all__ = ["CustomerActions", "CustomerReply", "EndReason", "SimulatedCustomer"]

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

    @property
    def meter(self) -> Meter:
        """What the customer's model calls used and cost (nothing, for a customer without a model)."""
        return Meter()

    @abstractmethod
    async def reply(self, visible: list[Entry], actions: CustomerActions | None = None) -> CustomerReply:
        """The answer to the latest message; `actions` performs the customer's own actions, where the task has any."""
