"""The suite a run directory was made from, opened today through its provider (the CLI names no suite)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from statebox.runner.store import RunDir
from statebox.tasks.provider import SuiteError, TaskSet, provider_for, suite_providers


def run_task_ids(run: RunDir) -> list[str]:
    """Every task the run has a record of (finished or errored), sorted."""
    return sorted({t.task_id for t in run.trials()} | {e.task_id for e in run.errors()})


def open_run_suite(run: RunDir, options: Mapping[str, Any]) -> tuple[TaskSet, list[str]]:
    """Today's suite of the run, holding the run's tasks that still exist; and the ids that no longer do.

    `options` are provider options by name (e.g. `data` for a suite read from a checkout); each
    provider is given only its own. A suite that cannot be opened is a `SuiteError`.
    """
    name = run.manifest().get("suite")
    if not isinstance(name, str):
        raise SuiteError(f"{run.path}/manifest.json: no suite named")
    provider = provider_for(name, suite_providers())
    own = {o.name: options.get(o.name, o.default) for o in provider.options}
    suite = provider.open(name, own, None, None)
    wanted = run_task_ids(run)
    have = {t.id for t in suite.tasks}
    return suite.with_tasks([t for t in suite.tasks if t.id in set(wanted)]), [i for i in wanted if i not in have]
