"""Group the attempts of one or more run directories by (suite, agent, model) and summarise each.

`report_document` produces the `report --json` document (models.py; keys in docs/contracts.md).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from statebox.report.models import ReportDocument, RunEntry
from statebox.report.runs import GroupKey, LoadedRuns, group_key, sort_key
from statebox.report.summary import ROLES, Attempt, summarize
from statebox.report.trial_summary import TrialSummary
from statebox.runner.record import ErrorRecord

UNKNOWN_DOMAIN = "(unknown)"


@dataclass(frozen=True)
class RunGroup:
    """All attempts of one (suite, agent, model), merged across directories; sorted."""

    key: GroupKey
    repeats: int  # the n every task should have: the manifest's repeat, or more if observed
    trials: tuple[TrialSummary, ...]
    errors: tuple[ErrorRecord, ...]

    @property
    def suite(self) -> str:
        return self.key[0]

    @property
    def agent(self) -> str:
        return self.key[1]

    @property
    def model(self) -> str | None:
        return self.key[2]


def group_runs(loaded: LoadedRuns) -> list[RunGroup]:
    """One group per (suite, agent, model), sorted by that key."""
    records: list[TrialSummary | ErrorRecord] = [*loaded.trials, *loaded.errors]
    keys = sorted({group_key(r) for r in records}, key=sort_key)
    groups = []
    for key in keys:
        trials = tuple(t for t in loaded.trials if group_key(t) == key)
        errors = tuple(e for e in loaded.errors if group_key(e) == key)
        # A repeat index seen (finished or errored) proves at least that many repeats were planned.
        observed = Counter(t.task_id for t in trials)
        planned = max([t.repeat + 1 for t in trials] + [e.repeat + 1 for e in errors], default=0)
        repeats = max(loaded.declared_repeats.get(key, 0), planned, max(observed.values(), default=0))
        groups.append(RunGroup(key, repeats, trials, errors))
    return groups


def task_domains(loaded: LoadedRuns) -> dict[tuple[str, str], str]:
    """(suite, task id) -> domain, from any finished attempt of the task or any error that names it."""
    domains = {(e.suite, e.task_id): e.domain for e in loaded.errors if e.domain}
    domains.update({(t.suite, t.task_id): t.domain for t in loaded.trials})
    return domains


def domain_of(error: ErrorRecord, domains: dict[tuple[str, str], str]) -> str:
    """An errored attempt's domain: its own record's, else the task's from other records, else unknown."""
    return error.domain or domains.get((error.suite, error.task_id), UNKNOWN_DOMAIN)


def attempts_of(group: RunGroup, domains: dict[tuple[str, str], str]) -> list[Attempt]:
    """The group's finished attempts and outstanding errors as metric inputs, sorted by task."""
    attempts = [
        Attempt(
            task_id=t.task_id,
            domain=t.domain,
            passed=t.passed,
            cost={role: t.cost_usd.get(role) for role in ROLES},
            signature=None if t.passed else t.signature,
            kinds=t.kinds,
            checks=t.checks,
            faults=frozenset(t.faults),
            typed_agrees=t.typed_agrees,
            clean=t.clean,
            writes_recorded=t.writes_recorded,
        )
        for t in group.trials
    ]
    attempts += [
        Attempt(
            task_id=e.task_id,
            domain=domain_of(e, domains),
            passed=False,
            cost={role: (e.cost_usd or {}).get(role, 0.0) for role in ROLES},
            error_kind=e.kind,
            spend_recorded=e.cost_usd is not None,
        )
        for e in group.errors
    ]
    # Stable sort: within a task, attempts keep the (sorted) order they were loaded in.
    return sorted(attempts, key=lambda a: (a.task_id, a.infra_error))


def summarize_group(group: RunGroup, domains: dict[tuple[str, str], str], *, errors_as_failures: bool) -> RunEntry:
    """The report entry of one group: identity, numbers overall, and the same per domain."""
    attempts = attempts_of(group, domains)
    by_domain = {
        domain: summarize(
            [a for a in attempts if a.domain == domain],
            group.repeats,
            errors_as_failures=errors_as_failures,
            identity=group.key,
        )
        for domain in sorted({a.domain for a in attempts})
    }
    overall = summarize(attempts, group.repeats, errors_as_failures=errors_as_failures, identity=group.key)
    return RunEntry(**dict(overall), by_domain=by_domain)


def report_document(loaded: LoadedRuns, *, errors_as_failures: bool = False) -> ReportDocument:
    """The `report --json` document: one entry per (suite, agent, model), deterministic for the same trials."""
    domains = task_domains(loaded)
    return ReportDocument(
        runs=[summarize_group(g, domains, errors_as_failures=errors_as_failures) for g in group_runs(loaded)]
    )


def build_report(loaded: LoadedRuns, *, errors_as_failures: bool = False) -> dict[str, Any]:
    """`report_document` as JSON-ready data (what `report --json` prints)."""
    return report_document(loaded, errors_as_failures=errors_as_failures).model_dump(mode="json")


def labels(entries: list[dict[str, Any]]) -> list[str]:
    """Short display names for report entries: the model (or agent), qualified only when ambiguous."""
    short = [str(e["model"] or e["agent"]) for e in entries]
    counts = Counter(short)
    return [
        name if counts[name] == 1 else f"{e['suite']} · {e['agent']} · {e['model'] or '-'}"
        for name, e in zip(short, entries, strict=True)
    ]
