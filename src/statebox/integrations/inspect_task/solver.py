"""The solver: statebox's attempt loop, played by the model Inspect gives the task.

The agent is statebox's `LlmAgent` over Inspect's model; the customer is the task's scripted
customer; the tools are a fresh world session behind MCP. The finished attempt (a `TrialRecord`,
judged by statebox's judge exactly as `statebox run` judges it) is kept in the sample's store
for the scorer, and the conversation becomes the sample's messages.
"""

from __future__ import annotations

from inspect_ai.model import ChatMessage, ModelOutput, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from statebox.agents.llm_agent import LlmAgent
from statebox.integrations.inspect_task.model_client import InspectModelClient, to_chat_message
from statebox.integrations.inspect_task.runtime import SuiteRuntime
from statebox.runner.episode import AttemptPlan, run_attempt
from statebox.users.scripted import ScriptedCustomer

TRIAL_KEY = "statebox_trial"  # the sample store's key for the attempt's trial record (JSON)


@solver
def statebox_attempt(runtime: SuiteRuntime) -> Solver:
    """Run one statebox attempt of the sample's task (the sample id is the task id)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        task = runtime.task(str(state.sample_id))
        model = get_model()
        agent = LlmAgent(InspectModelClient(model), task.limits, time_budget_s=runtime.time_budget_s)
        plan = AttemptPlan(
            suite=runtime.suite,
            task=task,
            agent=agent,
            customer=ScriptedCustomer(task.customer),
            repeat=state.epoch - 1,
            time_budget_s=runtime.time_budget_s,
            backend=runtime.backend(task),
            rubric_judge=runtime.rubric_judge(task),
        )
        record = await run_attempt(plan)
        state.store.set(TRIAL_KEY, record.model_dump(mode="json"))
        state.messages = _conversation(agent)
        last = next((e.content for e in reversed(record.transcript.entries) if e.role == "agent" and e.content), "")
        state.output = ModelOutput.from_content(str(model), last)
        return state

    return solve


def _conversation(agent: LlmAgent) -> list[ChatMessage]:
    """What the model saw and said, in Inspect's form (customer turns are user messages)."""
    return [to_chat_message(m) for m in agent.messages]
