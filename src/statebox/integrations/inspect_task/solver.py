"""The solver: statebox's attempt loop, played by the models Inspect gives the task.

The agent is statebox's `LlmAgent` over Inspect's model, set up by the suite's attempt source as
`statebox run` sets it up. The customer is statebox's LLM customer talking through the `customer`
model role when one is given (`--model-role customer=...`), else the task's scripted customer; the
rubric questions are judged by the `judge` role's model when one is given. The tools are a fresh
backend of the suite (a world session behind MCP, or the benchmark's own tool servers). The finished
attempt (a `TrialRecord`, judged by statebox's judge exactly as `statebox run` judges it) is kept in
the sample's store for the scorer, and the conversation becomes the sample's messages.
"""

from __future__ import annotations

from inspect_ai.model import ChatMessage, Model, ModelOutput, get_model, model_roles
from inspect_ai.solver import Generate, Solver, TaskState, solver

from statebox.agents.base import Agent
from statebox.agents.llm_agent import LlmAgent
from statebox.integrations.inspect_task.model_client import InspectModelClient, to_chat_message
from statebox.integrations.inspect_task.runtime import CUSTOMER_ROLE, JUDGE_ROLE, SuiteRuntime, role_model
from statebox.runner.episode import AttemptPlan, run_attempt
from statebox.tasks import Task
from statebox.users.base import SimulatedCustomer
from statebox.users.llm_customer import LlmCustomer
from statebox.users.scripted import ScriptedCustomer

TRIAL_KEY = "statebox_trial"  # the sample store's key for the attempt's trial record (JSON)


@solver
def statebox_attempt(runtime: SuiteRuntime) -> Solver:
    """Run one statebox attempt of the sample's task (the sample id is the task id)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        task = runtime.task(str(state.sample_id))
        model = get_model()
        roles = model_roles()
        judge = role_model(roles, JUDGE_ROLE)
        async with runtime.lease.held() as source:
            agent = source.llm_agent(InspectModelClient(model, runtime.agent_config), task, runtime.time_budget_s)
            plan = AttemptPlan(
                suite=runtime.suite,
                task=task,
                agent=agent,
                customer=_customer(task, role_model(roles, CUSTOMER_ROLE)),
                repeat=state.epoch - 1,
                time_budget_s=runtime.time_budget_s,
                backend=source.backend(task),
                rubric_judge=runtime.rubric_judge(task, InspectModelClient(judge) if judge is not None else None),
            )
            record = await run_attempt(plan)
        state.store.set(TRIAL_KEY, record.model_dump(mode="json"))
        state.messages = _conversation(agent)
        last = next((e.content for e in reversed(record.transcript.entries) if e.role == "agent" and e.content), "")
        state.output = ModelOutput.from_content(str(model), last)
        return state

    return solve


def _customer(task: Task, model: Model | None) -> SimulatedCustomer:
    """statebox's LLM customer over the `customer` role's model, or the task's scripted customer."""
    if model is None:
        return ScriptedCustomer(task.customer)
    return LlmCustomer(InspectModelClient(model), task.customer)


def _conversation(agent: Agent) -> list[ChatMessage]:
    """What the model saw and said, in Inspect's form (customer turns are user messages)."""
    messages = agent.messages if isinstance(agent, LlmAgent) else []
    return [to_chat_message(m) for m in messages]
