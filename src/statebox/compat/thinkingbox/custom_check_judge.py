"""The answers to a custom check's `judge(...)` questions: asked of the run's judge model (the
rubric judge's client, its usage on the rubric judge's meter), one model call per question.

A check asks on its own terms (a text and a question; two texts and a question; a bare question;
or its own system and user prompts); the prompts below are statebox's, the answer is read as the
rubric judge reads its own (JSON, else a leading yes or no, else no).
"""

from __future__ import annotations

from statebox.compat.thinkingbox.custom_check_protocol import JudgeAnswer, JudgeQuestion
from statebox.judge.rubrics import RubricJudge, parse_answer
from statebox.llm.types import Message

_FORMAT = 'Reply with one JSON object only: {"answer": "yes" | "no", "reason": "<one sentence>"}'
_TEXT = f"""You judge a piece of text. It is given between <text> and </text>; a question about it follows.
Answer the question with yes or no, strictly from what the text says. {_FORMAT}"""
_COMPARE = f"""You judge two pieces of text, given between <first> and </first> and between <second> and </second>;
a question about them follows. Answer it with yes or no, strictly from what the texts say. {_FORMAT}"""
_BARE = f"""You answer a yes-or-no question. {_FORMAT}"""


def judge_messages(question: JudgeQuestion) -> list[Message]:
    """The model conversation that asks one check question."""
    a = question.args
    if question.method == "evaluate_bool":  # the check wrote both prompts itself
        return [Message(role="system", content=a.get("system", "")), Message(role="user", content=a.get("user", ""))]
    if question.method == "text_yesno":
        system, user = _TEXT, f"<text>\n{_quoted(a.get('text', ''))}\n</text>\n\n{a.get('question', '')}"
    elif question.method == "compare_yesno":
        first, second = _quoted(a.get("first", "")), _quoted(a.get("second", ""))
        system, user = _COMPARE, f"<first>\n{first}\n</first>\n<second>\n{second}\n</second>\n\n{a.get('question', '')}"
    else:
        system, user = _BARE, a.get("question", "")
    return [Message(role="system", content=system), Message(role="user", content=user)]


def _quoted(text: str) -> str:
    """The text with angle brackets escaped, so that it cannot close the tags around it."""
    return text.replace("<", "&lt;").replace(">", "&gt;")


async def ask_judge(judge: RubricJudge, question: JudgeQuestion) -> JudgeAnswer:
    """The judge model's answer to one question; an unreadable answer is a no."""
    completion = await judge.client.complete(judge_messages(question), role="judge")
    judge.meter.add(completion.usage, completion.cost_usd)
    answer, reason = parse_answer(completion.text)
    return JudgeAnswer(id=question.id, answer=answer == "yes", reason=reason)
