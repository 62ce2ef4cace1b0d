"""The LLM simulated customer: persona, goal, private facts and rules; ends through a tool."""

from __future__ import annotations

from statebox.agents.transcript import Entry
from statebox.llm.client import ModelClient
from statebox.llm.meter import Meter
from statebox.llm.types import Message, ToolDef
from statebox.tasks import Customer
from statebox.users.actions import asked_for, perform
from statebox.users.base import CustomerActions, CustomerReply, EndReason, SimulatedCustomer

_RULES = """\
You are playing a customer who is writing to a company's support agent. Stay in character.
- Your goal is below. Pursue it, and nothing else.
- You know only the FACTS below. Never invent an order number, an email, a date or any other data.
- Give a fact only when the agent asks for it (or for something that clearly is it). If asked again, repeat it.
- If the agent asks for something you do not know, say you don't have that information.
- Being told something will be done is not having it done: end only once the agent says it is done,
  or it clearly cannot be done, or you are handed to a human.
- To end the conversation, call the end_conversation tool with the reason. Do not say goodbye in text instead.
- Write short, natural messages, as a real customer would."""

END_TOOL = ToolDef(
    name="end_conversation",
    description="End the conversation with the support agent.",
    input_schema={
        "type": "object",
        "properties": {"reason": {"type": "string", "enum": ["satisfied", "gave_up", "transferred"]}},
        "required": ["reason"],
        "additionalProperties": False,
    },
)


def customer_prompt(profile: Customer) -> str:
    # A fact that needs an action first (a code texted to the phone) is told only once the action is done.
    known = [f for f in profile.facts if f.via is None]
    facts = "\n".join(f"{f.key}: {f.value}" for f in known) or "(only what the GOAL above says)"
    rules = "\n".join(f"- {r}" for r in profile.rules)
    persona = f"\nPERSONA:\n{profile.persona}\n" if profile.persona else ""
    extra = f"\nMORE RULES:\n{rules}\n" if rules else ""
    return f"{_RULES}\n{persona}\nGOAL:\n{profile.goal}\n\nFACTS:\n{facts}\n{extra}"


class LlmCustomer(SimulatedCustomer):
    """A model plays the customer; it sees the visible conversation with roles flipped."""

    name = "llm"

    def __init__(self, client: ModelClient, profile: Customer, seed: int | None = None) -> None:
        self.client = client
        self.model = client.spec
        self.profile = profile
        self.seed = seed
        self._meter = Meter()

    @property
    def meter(self) -> Meter:
        """Every call of the simulator, for the trial's `user` usage and cost."""
        return self._meter

    async def reply(self, visible: list[Entry], actions: CustomerActions | None = None) -> CustomerReply:
        messages = [Message(role="system", content=customer_prompt(self.profile))]
        for e in visible:
            messages.append(Message(role="assistant" if e.role == "customer" else "user", content=e.content))
        latest = visible[-1].content if visible and visible[-1].role != "customer" else ""
        done = [perform(f, actions) for f in asked_for(self.profile, latest) if f.via is not None]
        if done:
            notes = "; ".join(f"{r.fact.key}: {r.said}" if r.done else r.said for r in done)
            last = messages[-1]
            seen = f"{last.content}\n\n[Only you see this. You just checked: {notes}]"
            messages[-1] = Message(role=last.role, content=seen)
        completion = await self.client.complete(messages, [END_TOOL], seed=self.seed, role="customer")
        self._meter.add(completion.usage, completion.cost_usd)
        for call in completion.tool_calls:
            if call.name == END_TOOL.name:
                reason = (call.arguments or {}).get("reason", "satisfied")
                end: EndReason = reason if reason in ("satisfied", "gave_up", "transferred") else "satisfied"
                return CustomerReply(completion.text, end_reason=end)
        return CustomerReply(completion.text or "I don't have that information.")
