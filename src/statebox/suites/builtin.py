"""The built-in domains as a suite provider: one suite per domain, and `builtin` for all of them.

Their attempts run on world sessions (`WorldSource`); `statebox validate` replays each reference,
does nothing, drops each write and tries the mutants (`judge.validate_task`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from statebox.runner.taskset import Listing
from statebox.suites.builtin_suite import Suite, load_suite
from statebox.suites.provider import SuiteError, SuiteInfo, SuiteProvider, ValidationReport
from statebox.tasks import TaskFileError, domain_names
from statebox.tasks.index import current_line, read_index
from statebox.tools.quoting import message_of

if TYPE_CHECKING:
    from statebox.judge import TaskValidation

ALL_DOMAINS = "builtin"
DEMO_SUITE = "retail"  # what `statebox demo` runs unless told otherwise


class BuiltinSuites(SuiteProvider[Suite]):
    """Every domain statebox ships (or a `statebox.domains` entry point adds), each a suite."""

    def names(self) -> list[str]:
        return [*domain_names(), ALL_DOMAINS]  # without importing the domains: opening another suite stays cheap

    def catalog(self) -> list[SuiteInfo]:
        """Built-in domains' lines from `domains/index.json` while it is current (nothing imported); others loaded."""
        indexed = read_index()
        rows = []
        for name in domain_names():
            line = current_line(name, indexed)
            if line is None:
                suite = load_suite(name)
                rows.append(SuiteInfo(name, len(suite.tasks), suite.domains[name].description))
            else:
                rows.append(SuiteInfo(name, line.tasks, line.description))
        total = sum(row.tasks or 0 for row in rows)
        return [*rows, SuiteInfo(ALL_DOMAINS, total, "all built-in domains")]

    def open(self, name: str, options: Mapping[str, Any], patterns: list[str] | None, test_list: Path | None) -> Suite:
        ids = read_test_list(test_list) if test_list is not None else None
        try:
            return load_suite(name).select(patterns, ids)
        except (LookupError, TaskFileError) as e:
            raise SuiteError(message_of(e)) from None

    def validate(self, suite: Suite, *, concurrency: int, on_done: Callable[[], None]) -> ValidationReport:
        """Every check on every task, one task at a time (each takes milliseconds)."""
        from statebox.judge import validate_task  # the judge loads with the command that judges
        from statebox.judge.validation import shape_of

        results: list[TaskValidation] = []
        for task in suite.tasks:
            results.append(validate_task(suite, task))
            on_done()
        ok = sum(r.ok for r in results)
        return ValidationReport(
            ok=ok == len(results),
            table=_validation_table(results),
            summary=f"{suite.name}: {ok}/{len(results)} tasks pass every check",
            json={"suite": suite.name, "tasks": [r.model_dump() for r in results]},
            shape=shape_of(suite, results),
        )


def read_test_list(path: Path) -> list[str]:
    """A YAML list of task ids."""
    try:
        items = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as e:
        raise SuiteError(f"{path}: cannot read the test list: {e}") from None
    if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
        raise SuiteError(f"{path}: a test list is a YAML list of task ids")
    return items


def _validation_table(results: list[TaskValidation]) -> Listing:
    columns = ("task", "reference", "no-op fails", "writes needed", "writes", "facts", "mutants", "problems")
    table = Listing(None, columns)
    for r in results:
        mutants = f"{r.mutants_caught}/{r.mutants_total}"
        cells = (r.reference_passes, r.noop_fails, r.necessary_calls, r.writes, r.facts, mutants, "; ".join(r.problems))
        table.rows.append((r.id, *cells))
    return table
