"""`statebox play`: a person plays the agent or the customer of one task; the attempt is judged like any other.

As the agent, the simulated customer is scripted (or an LLM); as the customer, a model agent serves.
The attempt can be saved as a one-attempt run directory that `report`, `show` and `regrade` read.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from statebox.agents.base import Agent
from statebox.llm.client import ModelClient, make_client
from statebox.offline import Side
from statebox.offline.human import AGENT_HELP, CUSTOMER_HELP, HumanAgent, HumanCustomer, Terminal
from statebox.runner.episode import AttemptPlan, run_attempt
from statebox.runner.manifest import Manifest, Played
from statebox.runner.record import TrialRecord
from statebox.runner.source import AttemptSource
from statebox.runner.store import RunDir
from statebox.runner.taskset import TaskSet
from statebox.tasks import Task
from statebox.users.base import SimulatedCustomer
from statebox.users.llm_customer import LlmCustomer
from statebox.users.scripted import ScriptedCustomer

TIME_BUDGET_S = 6 * 3600.0  # a person takes their time


class PlayError(ValueError):
    """A play session that cannot start as asked (one line naming the option)."""


@dataclass(frozen=True)
class PlaySetup:
    side: Side = "agent"
    model: str | None = None  # the agent's model when a person plays the customer
    user_model: str | None = None  # an LLM customer when a person plays the agent (default: scripted)
    base_url: str | None = None
    out: Path | None = None


async def play_attempt(suite: TaskSet, task: Task, setup: PlaySetup, terminal: Terminal) -> TrialRecord:
    """Run one attempt with a person on one side; print the verdict; save it when asked."""
    if setup.out is not None and RunDir(setup.out).exists():
        raise PlayError(f"{setup.out} already holds a run; choose another --out")
    if setup.side == "customer" and not setup.model:
        raise PlayError("--as customer needs --model: the model agent that serves you")
    source = suite.attempt_source()
    source.prepare([task])
    clients: list[ModelClient] = []
    try:
        agent, customer = _sides(source, task, setup, terminal, clients)
        _introduce(task, setup.side, terminal)
        async with source.running():
            plan = AttemptPlan(suite=suite, task=task, agent=agent, customer=customer, repeat=0,
                               time_budget_s=TIME_BUDGET_S, backend=source.backend(task))  # fmt: skip
            record = await run_attempt(plan)
    finally:
        for client in clients:
            await client.aclose()
    if setup.out is not None:
        run = RunDir(setup.out)
        run.write_manifest(_manifest(suite, task, setup, record).with_entries(source.manifest()))
        run.append_trial(record)
    return record


def _client(spec: str, base_url: str | None, clients: list[ModelClient]) -> ModelClient:
    client = make_client(spec, base_url=base_url if spec.startswith("openai:") else None, max_concurrency=1)
    clients.append(client)
    return client


def _sides(
    source: AttemptSource, task: Task, setup: PlaySetup, terminal: Terminal, clients: list[ModelClient]
) -> tuple[Agent, SimulatedCustomer]:
    if setup.side == "customer":
        assert setup.model is not None
        agent = source.llm_agent(_client(setup.model, setup.base_url, clients), task, TIME_BUDGET_S)
        return agent, HumanCustomer(terminal, task.customer)
    customer: SimulatedCustomer = (
        LlmCustomer(_client(setup.user_model, setup.base_url, clients), task.customer)
        if setup.user_model
        else ScriptedCustomer(task.customer)
    )
    return HumanAgent(terminal), customer


def _introduce(task: Task, side: Side, terminal: Terminal) -> None:
    if side == "customer":
        terminal.say(f"You are the customer. Your goal: {task.customer.goal}", "bold")
        for fact in task.customer.facts:
            terminal.say(f"  you know: {fact.key} = {fact.value}")
        terminal.say(CUSTOMER_HELP, "dim")
        terminal.say(f"you (opening): {task.opening_message}")
        return
    terminal.say(f"You are the agent on task {task.id}. Read the policy (/policy) and help the customer.", "bold")
    terminal.say(AGENT_HELP, "dim")


def _manifest(suite: TaskSet, task: Task, setup: PlaySetup, record: TrialRecord) -> Manifest:
    """The run manifest (docs/contracts.md) of one played attempt."""
    return Manifest.of(
        suite.with_tasks([task]),
        agent=record.agent,
        models=[setup.model] if setup.side == "customer" and setup.model else [],
        base_url=setup.base_url,
        user=record.user,
        user_model=setup.user_model if setup.side == "agent" else None,
        repeat=1,
        concurrency=1,
        workers=1,
        tools_via="memory",
        search_backend="embedded-fts5",
        played=Played(as_=setup.side),
    )
