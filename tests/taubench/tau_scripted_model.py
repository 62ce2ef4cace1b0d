"""A scripted OpenAI-compatible endpoint that plays τ-bench tasks' references, for `statebox run --agent llm` tests.

`statebox fake-model` plays statebox's own suites (it plans from their domains' tools); this double plays a
τ-bench suite: the agent recognises its task from the customer's opening (tasks whose user is the only one
of the split with that opening), makes the task's actions one per response, then tells the customer the
task's outputs; the customer ends the conversation through its end tool.
"""

from __future__ import annotations

import uuid
from collections import Counter

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from statebox.compat.taubench.suite import TauSuite
from statebox.fakemodel.customer import END_CONVERSATION_TOOL
from statebox.fakemodel.protocol import ChatRequest, Reply, ToolCallOut, completion, parse_request

ROLE_HEADER = "x-statebox-role"


class TauScriptedModel:
    def __init__(self, suite: TauSuite) -> None:
        openings = Counter(t.opening_message for t in suite.tasks)
        self.tasks = {t.opening_message: suite.tau_task(t.id) for t in suite.tasks if openings[t.opening_message] == 1}
        self.requests: Counter[str] = Counter()
        self.app = Starlette(routes=[Route("/v1/chat/completions", self.chat, methods=["POST"])])

    async def __call__(self, scope, receive, send):  # type: ignore[no-untyped-def]
        await self.app(scope, receive, send)

    async def chat(self, http: Request) -> JSONResponse:
        request = parse_request(await http.json())
        role = http.headers.get(ROLE_HEADER, "agent")
        self.requests[role] += 1
        reply = self.customer(request) if role == "customer" else self.agent(request)
        return JSONResponse(completion(request, reply, "chatcmpl-" + uuid.uuid4().hex))

    def agent(self, request: ChatRequest) -> Reply:
        opening = next((t.text for t in request.turns if t.role == "user"), "")
        task = self.tasks.get(opening)
        if task is None:
            return Reply("I cannot tell which task this is.")
        made = sum(len(t.tool_calls) for t in request.turns if t.role == "assistant")
        if made < len(task.reference):
            call = task.reference[made]
            return Reply(call=ToolCallOut(call.tool, dict(call.args)))
        return Reply("All done: " + "; ".join(task.tau.outputs) if task.tau.outputs else "All done.")

    def customer(self, request: ChatRequest) -> Reply:
        if END_CONVERSATION_TOOL in request.tool_names:
            return Reply(call=ToolCallOut(END_CONVERSATION_TOOL, {"reason": "satisfied"}))
        return Reply("Thank you, that is all.")
