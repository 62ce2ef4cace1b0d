"""Scripted answers to rubric-judge requests: a JSON verdict, "yes" unless configured otherwise.

A request is a rubric-judge request when its system message starts with RUBRIC_JUDGE_MARKER.
The answer is the text `{"answer": "yes", "reason": "..."}`.
"""

from __future__ import annotations

import json

from statebox.fakemodel.protocol import ChatRequest, Reply

RUBRIC_JUDGE_MARKER = "STATEBOX-RUBRIC-JUDGE"


def is_judge_request(request: ChatRequest) -> bool:
    return request.system.lstrip().startswith(RUBRIC_JUDGE_MARKER)


def judge_reply(answer: str = "yes") -> Reply:
    reason = "The final reply addresses the question (scripted judge of the fake model)."
    return Reply(json.dumps({"answer": answer, "reason": reason}))
