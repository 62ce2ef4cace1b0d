"""What a campaign runs: its configuration, its manifest, and its work items (sharded, resumable)."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from statebox.llm.retry import RetryPolicy
from statebox.llm.types import Sampling
from statebox.runner.autoworkers import llm_workers
from statebox.runner.manifest import Manifest
from statebox.runner.record import trial_id
from statebox.runner.taskset import TaskSet
from statebox.tasks import Task

AgentKind = Literal["llm", "reference", "noop"]
UserKind = Literal["llm", "scripted"]
ToolsVia = Literal["memory", "http", "direct"]
ExecutorKind = Literal["local", "ray"]  # local: this process (or --workers processes); ray: workers on a Ray cluster


@dataclass
class CampaignConfig:
    """Everything `statebox run` was asked to do."""

    suite: TaskSet  # a built-in Suite, or a suite of another kind that provides its attempt source
    agent: AgentKind
    out: Path
    models: list[str] = field(default_factory=list)
    base_url: str | None = None
    user: UserKind | None = None
    user_model: str | None = None
    judge_model: str | None = None
    repeat: int = 1
    concurrency: int = 4
    workers: int = 1  # processes, each running a slice at `concurrency`; 0 = auto (resolve_workers)
    retry: RetryPolicy | None = None  # model calls: retries and per-request timeout
    shard: tuple[int, int] | None = None
    resume: bool = False
    rerun_simulator_faults: bool = False  # with resume: run again the attempts whose trial has simulator faults
    sampling: Sampling = field(default_factory=Sampling)
    tools_via: ToolsVia = "memory"
    time_budget_s: float = 600.0
    prices_file: Path | None = None
    search_backend: str = "embedded-fts5"
    progress: bool = True
    executor: ExecutorKind = "local"
    ray_address: str | None = None  # with the ray executor: the cluster to join (None: RAY_ADDRESS, else a local Ray)

    def agent_models(self) -> list[str | None]:
        """The model slots of the campaign: the given models for the LLM agent, one empty slot otherwise."""
        return list(self.models) if self.agent == "llm" else [None]

    def user_kind(self) -> UserKind | None:
        if self.agent != "llm":
            return None
        return self.user or "llm"

    def resolved_user_model(self) -> str | None:
        return self.user_model or (self.models[0] if self.models else None) if self.user_kind() == "llm" else None

    def resolved_judge_model(self) -> str | None:
        """The rubric judge: --judge-model, else the first agent model; none for model-free agents."""
        if not any(t.asks_judge_model() for t in self.suite.tasks):
            return None
        return self.judge_model or (self.models[0] if self.agent == "llm" and self.models else None)


@dataclass(frozen=True)
class WorkItem:
    task: Task
    model: str | None
    repeat: int
    trial_id: str


AUTO_WORKERS_MIN_ATTEMPTS = 200  # below this, forking costs more than it saves
AUTO_WORKERS_MAX = 4


def resolve_workers(requested: int, agent: str, attempts: int, concurrency: int = 1) -> int:
    """Processes to use. Auto (0): one per core (up to 4) for model-free agents on large campaigns,
    whose attempts are CPU-bound; for LLM agents, as many as their attempts in flight keep busy
    (runner/autoworkers.py)."""
    if requested > 0:
        return requested
    if agent == "llm":
        return llm_workers(concurrency, attempts)
    if attempts < AUTO_WORKERS_MIN_ATTEMPTS:
        return 1
    return max(1, min(os.cpu_count() or 1, AUTO_WORKERS_MAX))


def shard_of(trial: str, shards: int) -> int:
    """A stable shard for a trial id (the same on every machine and Python)."""
    return int.from_bytes(hashlib.sha256(trial.encode()).digest()[:8], "big") % shards


def work_items(config: CampaignConfig, finished: set[str]) -> list[WorkItem]:
    """Every attempt of the campaign that belongs to this shard and is not in `finished` (the trial ids
    whose effective trial stands: see `Campaign.prepare`)."""
    items = []
    for task in config.suite.tasks:
        for model in config.agent_models():
            for r in range(config.repeat):
                tid = trial_id(config.suite.name, task.id, config.agent, model, r)
                if tid in finished:
                    continue
                if config.shard and shard_of(tid, config.shard[1]) != config.shard[0]:
                    continue
                items.append(WorkItem(task, model, r, tid))
    return items


def longest_first(items: list[WorkItem]) -> list[WorkItem]:
    """The attempts of the tasks with the longest reference solutions first, in order otherwise.

    A campaign ends when its last attempt does: started last, short attempts finish close
    together, where long ones would leave most slots idle while they run on (the usual rule for
    a short makespan). The reference's length stands in for the attempt's, which is unknown.
    """
    return sorted(items, key=lambda item: -len(item.task.reference))


def build_manifest(config: CampaignConfig, prices: dict[str, Any]) -> Manifest:
    """What was run, so results can be trusted, compared and resumed (contract: run directory)."""
    return Manifest.of(
        config.suite,
        agent=config.agent,
        models=config.models if config.agent == "llm" else [],
        base_url=config.base_url,
        sampling=config.sampling,
        user=config.user_kind(),
        user_model=config.resolved_user_model(),
        judge_model=config.resolved_judge_model(),
        rubrics_judged=config.resolved_judge_model() is not None,
        repeat=config.repeat,
        concurrency=config.concurrency,
        workers=config.workers,
        shard=list(config.shard) if config.shard else None,
        tools_via=config.tools_via,
        search_backend=config.search_backend,
        prices=prices,
    )
