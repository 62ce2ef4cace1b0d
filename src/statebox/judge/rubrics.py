"""The rubric judge: yes/no questions on what the agent told the customer, answered by a judge model.

A question is judged on everything the agent said to the customer (built-in suites) or on its
final reply only (ThinkingBox-Bench's rule, or a rubric that says `judged_on: final_reply`).
"""

from __future__ import annotations

import json
import re
from typing import Literal

from pydantic import BaseModel

from statebox.agents.transcript import Transcript
from statebox.llm.client import ModelClient
from statebox.llm.meter import Meter
from statebox.llm.types import Message
from statebox.tasks.model import Rubric

_ANSWER = """Respond with one JSON object only: {"answer": "yes" | "no", "reason": "<one sentence>"}"""
_PROMPTS = {
    "final_reply": f"""You grade a customer support agent's final reply to a customer.
Answer the question about the reply with yes or no, strictly from what the reply says. {_ANSWER}""",
    "conversation": f"""You grade what a customer support agent told a customer. You see every message the agent sent
to the customer, in order. Answer the question with yes or no, strictly from what those messages
say. {_ANSWER}""",
}
RubricScope = Literal["conversation", "final_reply"]


class RubricResult(BaseModel):
    question: str
    answer: str
    passed: bool
    reason: str = ""


class RubricJudge:
    """Asks one judge model each question; keeps its answer, its reason, and what it cost."""

    def __init__(self, client: ModelClient) -> None:
        self.client = client
        self.meter = Meter()  # every question asked, for the trial's `judge` usage and cost

    async def judge(
        self, rubrics: list[Rubric], transcript: Transcript, default: RubricScope = "conversation"
    ) -> list[RubricResult]:
        """Each question on its scope: the rubric's own `on`, else the suite's `default`."""
        results = []
        for rubric in rubrics:
            scope = rubric.judged_on or default
            q = rubric.question
            messages = [
                Message(role="system", content=_PROMPTS[scope]),
                Message(role="user", content=f"{_shown(scope, transcript)}\n\nQuestion: {q}"),
            ]
            completion = await self.client.complete(messages, role="judge")
            self.meter.add(completion.usage, completion.cost_usd)
            answer, reason = parse_answer(completion.text)
            results.append(RubricResult(question=q, answer=answer, passed=answer == "yes", reason=reason))
        return results


def _shown(scope: RubricScope, transcript: Transcript) -> str:
    if scope == "final_reply":
        return f"Final reply:\n<<<\n{transcript.final_agent_reply()}\n>>>"
    said = [e.content for e in transcript.visible() if e.role == "agent"]
    numbered = "\n".join(f"[{i}] {text}" for i, text in enumerate(said, 1)) or "(the agent said nothing)"
    return f"The agent's messages to the customer:\n<<<\n{numbered}\n>>>"


def parse_answer(text: str) -> tuple[str, str]:
    """'yes' or 'no' and the reason; anything unreadable counts as 'no'."""
    match = re.search(r"\{.*\}", text, re.S)
    if match:
        try:
            data = json.loads(match.group(0))
            answer = str(data.get("answer", "")).strip().lower()
            if answer in ("yes", "no"):
                return answer, str(data.get("reason", ""))
        except json.JSONDecodeError:
            pass
    word = text.strip().lower()
    if word.startswith(("yes", "no")):
        return ("yes" if word.startswith("yes") else "no"), text.strip()
    return "no", f"unreadable judge answer: {text[:200]!r}"
