"""A campaign: tasks x models x repeats, run concurrently, each finished attempt appended as it ends."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from statebox.agents.base import Agent
from statebox.agents.scripted import NoopAgent
from statebox.judge.rubrics import RubricJudge
from statebox.llm.client import ModelClient, make_client
from statebox.llm.pricing import PriceOverrides
from statebox.llm.spec import base_url_for
from statebox.runner.autoworkers import concurrency_per_worker
from statebox.runner.episode import AttemptPlan, run_attempt, spent
from statebox.runner.errors import CampaignError, classify, stopping_error
from statebox.runner.executors import load_executor
from statebox.runner.manifest import Manifest
from statebox.runner.plan import (
    CampaignConfig,
    WorkItem,
    build_manifest,
    longest_first,
    resolve_workers,
    work_items,
)
from statebox.runner.progress import CampaignProgress
from statebox.runner.record import ErrorRecord, TrialRecord
from statebox.runner.source import AttemptSource
from statebox.runner.store import RunDir, RunDirError
from statebox.tasks import Task
from statebox.users.base import SimulatedCustomer
from statebox.users.llm_customer import LlmCustomer
from statebox.users.scripted import ScriptedCustomer

__all__ = ["Campaign", "CampaignError", "CampaignResult", "classify"]


# Told of each finished attempt: ("pass" | "fail" | "error", the trial id or the error message).
OutcomeCallback = Callable[[str, str], None]


@dataclass
class CampaignResult:
    ran: int = 0
    passed: int = 0
    failed: int = 0
    errors: int = 0
    error_messages: list[str] = field(default_factory=list)
    # The run directory's trials as `Campaign.finish()` read them (None: it had no errors to keep, so
    # it did not read them): handed on, so that the summary does not read trials.jsonl a second time.
    trials: list[TrialRecord] | None = None

    def add(self, outcome: str, message: str = "") -> None:
        """Count one finished attempt (or infrastructure error)."""
        if outcome == "error":
            self.errors += 1
            self.error_messages.append(message)
            return
        self.ran += 1
        self.passed += outcome == "pass"
        self.failed += outcome == "fail"


class Campaign:
    """Owns the clients, the run directory and the attempt source of one `statebox run`."""

    def __init__(self, config: CampaignConfig, source: AttemptSource | None = None) -> None:
        self.config = config
        self.source = source or config.suite.attempt_source(config.tools_via)
        self.source.check(config)
        self.run_dir = RunDir(config.out)
        prices = PriceOverrides.from_yaml(config.prices_file) if config.prices_file else None
        self.clients: dict[str, ModelClient] = {}
        self._task_hashes: dict[tuple[str, str], str] = {}  # per task: hashed once per campaign, not per attempt
        for spec in {*config.models, config.resolved_user_model(), config.resolved_judge_model()} - {None}:
            assert spec is not None
            self.clients[spec] = make_client(
                spec,
                base_url=base_url_for(spec, config.base_url, config.models),
                sampling=config.sampling,
                prices=prices,
                max_concurrency=max(config.concurrency, 1),
                retry=config.retry,
            )

    def manifest(self) -> Manifest:
        prices = {spec: c.price_table() for spec, c in sorted(self.clients.items())}
        return build_manifest(self.config, prices).with_entries(self.source.manifest())

    def prepare(self) -> list[WorkItem]:
        """Check the run directory, write the manifest, let the source prepare (a broken task fails here)."""
        manifest = self.manifest()
        try:
            if self.run_dir.exists():
                if not self.config.resume:
                    raise RunDirError(
                        f"{self.config.out} already holds a run; pass --resume to continue it, or choose another --out"
                    )
                self.run_dir.check_resumable(manifest)
            finished = self.standing_trials() if self.config.resume else set()
        except RunDirError as e:
            raise CampaignError(str(e)) from None
        items = work_items(self.config, finished)
        self.source.prepare(list({i.task.id: i.task for i in items}.values()))
        self.run_dir.write_manifest(manifest)
        self.run_dir.repair()
        return items

    def standing_trials(self) -> set[str]:
        """Trial ids not to run again: every finished one, except, with --rerun-simulator-faults, those
        whose effective (latest) trial has simulator faults. A rerun's record is appended and supersedes
        the flagged one (RunDir.trials: the last record per trial id)."""
        rerun = self.config.rerun_simulator_faults
        return {t.trial_id for t in self.run_dir.trials() if not (rerun and t.simulator_faults)}

    async def run(self) -> CampaignResult:
        """Run every outstanding attempt in this process (concurrently, up to --concurrency)."""
        items = self.prepare()
        with CampaignProgress(len(items), enabled=self.config.progress) as progress:
            result = await self.execute(items, progress.advance)
        result.trials = self.finish()
        return result

    def run_blocking(self) -> CampaignResult:
        """Run the campaign, in several processes when `config.workers` asks (see runner/workers.py),
        or by a plug-in executor named by `config.executor` (`ray`: the optional extra statebox[ray])."""
        # A plug-in executor is loaded before anything is written: a missing extra is one error line.
        remote = load_executor(self.config.executor) if self.config.executor != "local" else None
        items = self.prepare()
        workers = resolve_workers(self.config.workers, self.config.agent, len(items), self.config.concurrency)
        local = self.config.executor == "local"  # on Ray, --concurrency is the cluster's limit per model
        if local and workers > 1 and self.config.workers == 0 and self.config.agent == "llm":  # share out, not multiply
            self.config.concurrency = concurrency_per_worker(self.config.concurrency, workers)
        with CampaignProgress(len(items), enabled=self.config.progress) as progress:
            if remote is not None:
                result = remote(self, items, progress.advance)
            elif workers <= 1:
                result = asyncio.run(self.execute(items, progress.advance))
            else:
                from statebox.runner.workers import run_in_processes

                result = run_in_processes(self, items, workers, progress.advance)
        result.trials = self.finish()
        return result

    async def execute(self, items: list[WorkItem], on_outcome: OutcomeCallback) -> CampaignResult:
        """Run these attempts with bounded concurrency; each finished one is appended as it ends."""
        result = CampaignResult()
        queue: asyncio.Queue[WorkItem] = asyncio.Queue()
        for item in longest_first(items):
            queue.put_nowait(item)
        try:
            async with self.source.running():
                tasks = [
                    asyncio.create_task(self._worker(queue, result, on_outcome))
                    for _ in range(max(1, self.config.concurrency))
                ]
                try:
                    await asyncio.gather(*tasks)
                except BaseException:  # a run-stopping error: end the attempts still in flight first
                    for task in tasks:
                        task.cancel()
                    await asyncio.gather(*tasks, return_exceptions=True)
                    raise
        finally:
            for client in self.clients.values():
                await client.aclose()
        return result

    def finish(self) -> list[TrialRecord] | None:
        """Keep in errors.jsonl only the errors of attempts that are still not finished; the run
        directory's trials if they had to be read for that (with no error recorded they are not)."""
        latest = {e.trial_id: e for e in self.run_dir.errors()}
        if not latest:
            self.run_dir.rewrite_errors([])  # the same (empty) errors.jsonl as when there are errors to drop
            return None
        trials = self.run_dir.trials()
        finished = {t.trial_id for t in trials}
        self.run_dir.rewrite_errors([e for tid, e in sorted(latest.items()) if tid not in finished])
        return trials

    async def _worker(
        self, queue: asyncio.Queue[WorkItem], result: CampaignResult, on_outcome: OutcomeCallback
    ) -> None:
        while not queue.empty():
            item = queue.get_nowait()
            record = await self.attempt(item)
            if isinstance(record, ErrorRecord):
                self.run_dir.append_error(record)
                result.add("error", f"{item.trial_id}: {record.message}")
                on_outcome("error", f"{item.trial_id}: {record.message}")
                continue
            self.run_dir.append_trial(record)
            outcome = "pass" if record.passed else "fail"
            result.add(outcome)
            on_outcome(outcome, item.trial_id)

    async def attempt(self, item: WorkItem) -> TrialRecord | ErrorRecord:
        """Run one attempt (while the source is running): its trial, or the infrastructure error that
        --resume retries. An error every attempt would repeat is raised as `CampaignStopped`."""
        plan: AttemptPlan | None = None
        try:
            plan = self._plan(item)
            return await run_attempt(plan)
        except Exception as e:
            if (stop := stopping_error(e)) is not None:
                raise stop from None
            return self._error(item, e, plan)

    def _plan(self, item: WorkItem) -> AttemptPlan:
        cfg = self.config
        agent: Agent
        if cfg.agent == "reference":
            agent = self.source.reference_agent(item.task)
        elif cfg.agent == "noop":
            agent = NoopAgent()
        else:
            assert item.model is not None
            agent = self.source.llm_agent(self.clients[item.model], item.task, cfg.time_budget_s)
        customer: SimulatedCustomer | None = None
        if cfg.user_kind() == "scripted":
            customer = ScriptedCustomer(item.task.customer)
        elif cfg.user_kind() == "llm":
            user_model = cfg.resolved_user_model()
            assert user_model is not None
            customer = LlmCustomer(self.clients[user_model], item.task.customer)
        judge_model = cfg.resolved_judge_model()
        judge = RubricJudge(self.clients[judge_model]) if judge_model and item.task.asks_judge_model() else None
        return AttemptPlan(
            suite=cfg.suite,
            task=item.task,
            agent=agent,
            customer=customer,
            repeat=item.repeat,
            rubric_judge=judge,
            time_budget_s=cfg.time_budget_s,
            backend=self.source.backend(item.task),
            task_hash=self._task_hash(item.task),
        )

    def _task_hash(self, task: Task) -> str:
        key = (task.domain, task.id)
        found = self._task_hashes.get(key)
        if found is None:
            found = self._task_hashes[key] = task.content_hash()
        return found

    def _error(self, item: WorkItem, e: Exception, plan: AttemptPlan | None = None) -> ErrorRecord:
        kind, message = classify(e)
        meters = spent(plan) if plan is not None else None
        return ErrorRecord(
            trial_id=item.trial_id,
            suite=self.config.suite.name,
            task_id=item.task.id,
            agent=self.config.agent,
            model=item.model,
            repeat=item.repeat,
            kind=kind,
            message=message,
            at=datetime.now(UTC).isoformat(),
            domain=item.task.domain,
            usage=None if meters is None else {role: m.usage for role, m in meters.items()},
            cost_usd=None if meters is None else {role: m.cost_usd for role, m in meters.items()},
        )
