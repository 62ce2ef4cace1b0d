"""`statebox import`: a recorded run becomes a statebox run directory.

Every recorded attempt is `run_attempt` with a replaying agent and customer (`replay.py`) on a fresh
backend of the suite's own attempt source, so its verdicts are exactly what `statebox run` gives; the
source's recorded verdict is kept in each trial's `recorded`. The manifest is a run's, with `imported`:
the format, the source file's absolute path and SHA-256 (`statebox verify` checks it), and the
importer's own entries. Nothing is written before every record was read and checked; a run directory
that exists is refused.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from statebox.importing.errors import ImportFormatError
from statebox.importing.recorded import ImportPlan, RecordedAttempt
from statebox.importing.registry import Importer
from statebox.importing.replay import Recording, ReplayingAgent, ReplayingCustomer
from statebox.judge.rubrics import RubricJudge
from statebox.llm.client import ModelClient
from statebox.runner.episode import AttemptPlan, run_attempt
from statebox.runner.manifest import Imported, Manifest
from statebox.runner.record import TrialRecord
from statebox.runner.source import AttemptSource
from statebox.runner.store import RunDir
from statebox.tasks import Limits, Task

REPLAY_LIMIT = 10_000  # turns, steps and errors a replay may take: the recording decides, not the limits


@dataclass(frozen=True)
class ImportResult:
    out: Path
    trials: list[TrialRecord]


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def import_run(
    importer: Importer,
    path: Path,
    out: Path,
    options: Mapping[str, Any],
    concurrency: int = 2,
    model: str | None = None,
    judge_client: ModelClient | None = None,
) -> ImportResult:
    """Read `path` with `importer`, replay every attempt, write the run directory `out` (`model`: the
    recorded agent's model, when the file does not say; `judge_client`: the rubric judge, else rubrics are
    not judged and every verdict says so)."""
    run = RunDir(out)
    if run.exists():
        raise ImportFormatError(f"{out} already holds a run; choose another --out")
    if not path.is_file():
        raise ImportFormatError(f"{path}: no such file")
    digest = sha256_of(path)
    plan = importer.read(path, options)
    plan.model = plan.model or model
    wanted = {a.task_id for a in plan.attempts}
    plan.suite = plan.suite.with_tasks(
        [t for t in plan.suite.tasks if t.id in wanted]
    )  # the run's tasks, as `run --tasks`
    _check_unique(path, plan.attempts)
    source = plan.suite.attempt_source()
    trials = asyncio.run(_replay_all(plan, source, concurrency, judge_client))
    manifest = import_manifest(importer, path, digest, plan, source, concurrency)
    if judge_client is not None:
        manifest = manifest.model_copy(update={"judge_model": judge_client.spec, "rubrics_judged": True})
    run.write_manifest(manifest)
    for record in sorted(trials, key=lambda t: t.recorded.record if t.recorded else 0):
        run.append_trial(record)
    return ImportResult(out, trials)


def _check_unique(path: Path, attempts: list[RecordedAttempt]) -> None:
    seen: dict[tuple[str, int], int] = {}
    for a in attempts:
        if (a.task_id, a.repeat) in seen:
            first, what = seen[a.task_id, a.repeat], f"task {a.task_id} trial {a.repeat}"
            raise ImportFormatError(f"{path}: record {a.record}: {what} again (record {first})")
        seen[a.task_id, a.repeat] = a.record


async def _replay_all(
    plan: ImportPlan, source: AttemptSource, concurrency: int, judge_client: ModelClient | None = None
) -> list[TrialRecord]:
    tasks = {t.id: t for t in plan.suite.tasks}
    source.prepare([tasks[i] for i in dict.fromkeys(a.task_id for a in plan.attempts)])
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(attempt: RecordedAttempt) -> TrialRecord:
        async with gate:
            return await replay_attempt(plan, source, tasks[attempt.task_id], attempt, judge_client)

    async with source.running():
        return list(await asyncio.gather(*(one(a) for a in plan.attempts)))


async def replay_attempt(
    plan: ImportPlan,
    source: AttemptSource,
    task: Task,
    attempt: RecordedAttempt,
    judge_client: ModelClient | None = None,
) -> TrialRecord:
    """One recorded attempt replayed and judged (the verdict document of `statebox run`); the recorded verdict
    kept beside statebox's."""
    recording = Recording(attempt)
    limits = Limits(max_turns=REPLAY_LIMIT, max_steps_per_turn=REPLAY_LIMIT, max_tool_errors=REPLAY_LIMIT)
    replayed = task.model_copy(update={"opening_message": attempt.opening, "limits": limits})
    episode = AttemptPlan(
        suite=plan.suite,
        task=replayed,
        agent=ReplayingAgent(recording, plan.model),
        customer=ReplayingCustomer(recording),
        repeat=attempt.repeat,
        backend=source.backend(task),
        rubric_judge=RubricJudge(judge_client) if judge_client is not None and task.asks_judge_model() else None,
        task_hash=task.content_hash(),  # the suite's task, not the replay's copy
    )
    record = await run_attempt(episode)
    return record.model_copy(update={"recorded": attempt.recorded})


def import_manifest(
    importer: Importer, path: Path, digest: str, plan: ImportPlan, source: AttemptSource, concurrency: int
) -> Manifest:
    """A run's manifest (docs/contracts.md), what the source adds, and `imported`."""
    repeats = max((a.repeat for a in plan.attempts), default=-1) + 1
    run = Manifest.of(
        plan.suite, agent=ReplayingAgent.name, models=[plan.model] if plan.model else [],
        user=ReplayingCustomer.name, repeat=repeats, concurrency=concurrency, workers=1, tools_via="memory",
    )  # fmt: skip
    at = datetime.now(UTC).isoformat(timespec="seconds")
    imported = Imported(
        format=importer.format, source=str(path.resolve()), sha256=digest, records=len(plan.attempts), at=at,
        **plan.manifest,
    )  # fmt: skip
    return run.with_entries({**source.manifest(), "imported": imported.model_dump(mode="json")})


def source_problem(manifest: Manifest) -> str | None:
    """For an imported run: why its source file is not what was imported (None: it is, or no import)."""
    imported = manifest.imported
    if imported is None:
        return None
    path = Path(imported.source)
    if not path.is_file():
        return f"the imported file {path} is gone"
    now, then = sha256_of(path), imported.sha256
    if now != then:
        return f"{path} changed since it was imported (SHA-256 {now[:12]}..., imported {then[:12]}...)"
    return None
