"""The LLM simulated customer: persona, goal, private facts and rules; ends through a tool."""

from __future__ import annotations

from statebox.agents.transcript import Entry
from statebox.llm.client import ModelClient
from statebox.llm.types import Message, ToolDef, Usage
from statebox.tasks import Customer
from statebox.users.base import CustomerReply, EndReason, SimulatedCustomer

# The first line of the simulator's system prompt; scripted model servers recognise it.
USER_SIMULATOR_MARKER = "STATEBOX-USER-SIMULATOR"

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
    facts = "\n".join(f"{f.key}: {f.value}" for f in profile.facts) or "(only what the GOAL above says)"
    rules = "\n".join(f"- {r}" for r in profile.rules)
    persona = f"\nPERSONA:\n{profile.persona}\n" if profile.persona else ""
    extra = f"\nMORE RULES:\n{rules}\n" if rules else ""
    return f"{USER_SIMULATOR_MARKER}\n{_RULES}\n{persona}\nGOAL:\n{profile.goal}\n\nFACTS:\n{facts}\n{extra}"


class LlmCustomer(SimulatedCustomer):
    """A model plays the customer; it sees the visible conversation with roles flipped."""

    name = "llm"

    def __init__(self, client: ModelClient, profile: Customer, seed: int | None = None) -> None:
        self.client = client
        self.model = client.spec
        self.profile = profile
        self.seed = seed
        self.usage_log: list[tuple[Usage, float | None]] = []

    async def reply(self, visible: list[Entry]) -> CustomerReply:
        messages = [Message(role="system", content=customer_prompt(self.profile))]
        for e in visible:
            messages.append(Message(role="assistant" if e.role == "customer" else "user", content=e.content))
        completion = await self.client.complete(messages, [END_TOOL], seed=self.seed)
        self.usage_log.append((completion.usage, completion.cost_usd))
        for call in completion.tool_calls:
            if call.name == END_TOOL.name:
                reason = (call.arguments or {}).get("reason", "satisfied")
                end: EndReason = reason if reason in ("satisfied", "gave_up", "transferred") else "satisfied"
                return CustomerReply(completion.text, end_reason=end)
        return CustomerReply(completion.text or "I don't have that information.")
