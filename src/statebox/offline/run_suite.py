"""The suite a run directory was made from, opened today through its provider (the CLI names no suite)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from statebox.runner.store import RunDir
from statebox.runner.taskset import TaskSet
from statebox.suites.provider import provider_for, suite_providers


def run_task_ids(run: RunDir) -> list[str]:
    """Every task the run has a record of (finished or errored), sorted."""
    return sorted({t.task_id for t in run.trials()} | {e.task_id for e in run.errors()})


def open_run_suite(
    run: RunDir, options: Mapping[str, Any], *, from_manifest: bool = False
) -> tuple[TaskSet, list[str]]:
    """Today's suite of the run, holding the run's tasks that still exist; and the ids that no longer do.

    `options` are provider options by name (e.g. `data` for a suite read from a checkout); each
    provider is given only its own; with `from_manifest`, where none is given, the run's own (as
    its manifest recorded them). A suite that cannot be opened is a `SuiteError`.
    """
    manifest = run.manifest()
    name = manifest.suite
    provider = provider_for(name, suite_providers())
    reading = [o for o in provider.options if "tasks" in o.commands]  # opened to read it, as `statebox tasks` does
    recorded, test_list = provider.run_options(manifest.as_json()) if from_manifest else ({}, None)
    given = {key: value for key, value in options.items() if value is not None}
    if any(given.get(o.name, o.default) != o.default for o in reading):
        recorded, test_list = {}, None  # the user said how to open it: only that
    own = {o.name: given.get(o.name, recorded.get(o.name, o.default)) for o in reading}
    suite = provider.open(name, own, None, test_list)
    wanted = run_task_ids(run)
    have = {t.id for t in suite.tasks}
    return suite.with_tasks([t for t in suite.tasks if t.id in set(wanted)]), [i for i in wanted if i not in have]
