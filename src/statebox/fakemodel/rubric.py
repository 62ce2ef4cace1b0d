"""Scripted answers to rubric-judge requests (`x-statebox-role: judge`): a JSON verdict, "yes" unless configured."""

from __future__ import annotations

import json

from statebox.fakemodel.protocol import Reply


def judge_reply(answer: str = "yes") -> Reply:
    reason = "The agent's messages address the question (scripted judge of the fake model)."
    return Reply(json.dumps({"answer": answer, "reason": reason}))
