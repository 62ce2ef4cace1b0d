"""The rubric judge: yes/no questions on the agent's final reply, answered by a judge model."""

from __future__ import annotations

import json
import re

from pydantic import BaseModel

from statebox.llm.client import ModelClient
from statebox.llm.meter import Meter
from statebox.llm.types import Message

# The first line of the judge's system prompt; scripted model servers recognise it.
RUBRIC_JUDGE_MARKER = "STATEBOX-RUBRIC-JUDGE"

_PROMPT = f"""{RUBRIC_JUDGE_MARKER}
You grade a customer support agent's final reply to a customer. Answer the question about the reply
with yes or no, strictly from what the reply says. Respond with one JSON object only:
{{"answer": "yes" | "no", "reason": "<one sentence>"}}"""


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

    async def judge(self, questions: list[str], final_reply: str) -> list[RubricResult]:
        results = []
        for q in questions:
            messages = [
                Message(role="system", content=_PROMPT),
                Message(role="user", content=f"Final reply:\n<<<\n{final_reply}\n>>>\n\nQuestion: {q}"),
            ]
            completion = await self.client.complete(messages)
            self.meter.add(completion.usage, completion.cost_usd)
            answer, reason = parse_answer(completion.text)
            results.append(RubricResult(question=q, answer=answer, passed=answer == "yes", reason=reason))
        return results


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
