"""`statebox report --html FILE`: one self-contained HTML file (template.html + embedded JSON).

The page's own JavaScript draws every chart as inline SVG and builds every node with
textContent, so the data (transcripts hold arbitrary text) is never parsed as markup. The JSON
is escaped so that no string in it can close the <script> element that carries it.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import statebox
from statebox.metrics import ParetoPoint, pareto_frontier
from statebox.report.aggregate import RunGroup, domain_of, group_runs, labels, task_domains
from statebox.report.runs import LoadedRuns
from statebox.runner.record import TrialRecord

DATA, CSS, JS = "__STATEBOX_DATA__", "/*__STATEBOX_CSS__*/", "/*__STATEBOX_JS__*/"
SCRIPTS = ("report_dom.js", "report_charts.js", "report_flags.js", "report_drilldown.js", "report_main.js")
_SCRIPT_SAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def embed_json(data: Any) -> str:
    """JSON text that is safe inside <script type="application/json">."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for char, escape in _SCRIPT_SAFE.items():
        text = text.replace(char, escape)
    return text


def frontier_labels(entries: list[dict[str, Any]], names: list[str]) -> set[str]:
    """Labels of the runs on the (agent cost per success, pass@1) Pareto frontier."""
    points = [
        ParetoPoint(name, e["cost"]["per_success_usd"], e["pass_at_1"])
        for name, e in zip(names, entries, strict=True)
        if e["pass_at_1"] is not None
    ]
    return {p.name for p in pareto_frontier(points)}


def page_data(loaded: LoadedRuns, report: dict[str, Any]) -> dict[str, Any]:
    """Everything the page shows: the report entries plus each group's tasks and attempts."""
    entries: list[dict[str, Any]] = report["runs"]
    names = labels(entries)
    on_frontier = frontier_labels(entries, names)
    groups, domains = group_runs(loaded), task_domains(loaded)
    return {
        "statebox_version": statebox.__version__,
        "warnings": list(loaded.warnings),
        "runs": [
            {"label": name, "on_frontier": name in on_frontier, "summary": entry, "tasks": drill_tasks(group, domains)}
            for name, entry, group in zip(names, entries, groups, strict=True)
        ],
    }


def drill_tasks(group: RunGroup, domains: dict[tuple[str, str], str]) -> list[dict[str, Any]]:
    """Per task (sorted): its attempts in repeat order and its outstanding infrastructure errors."""
    tasks: dict[str, dict[str, Any]] = {}
    for t in group.trials:
        task = tasks.setdefault(t.task_id, _task(t.task_id, t.domain))
        task["attempts"].append(attempt_view(t))
    for e in group.errors:
        task = tasks.setdefault(e.task_id, _task(e.task_id, domain_of(e, domains)))
        task["errors"].append({"repeat": e.repeat, "kind": e.kind, "message": e.message})
    for task in tasks.values():
        task["attempts"].sort(key=lambda a: a["repeat"])
        task["errors"].sort(key=lambda e: e["repeat"])
    return [tasks[k] for k in sorted(tasks)]


def _task(task_id: str, domain: str) -> dict[str, Any]:
    return {"task_id": task_id, "domain": domain, "attempts": [], "errors": []}


def attempt_view(t: TrialRecord) -> dict[str, Any]:
    """One attempt as the drill-down shows it (timings left out: they are not results)."""
    return {
        "trial_id": t.trial_id,
        "repeat": t.repeat,
        "passed": t.passed,
        "state_passed": t.state_passed,
        "signature": t.signature,
        "finish_reason": t.finish_reason,
        "customer_end_reason": t.customer_end_reason,
        "cost_usd": t.cost_usd,
        "discrepancies": [d.model_dump(mode="json") for d in t.discrepancies],
        "simulator_faults": [f.model_dump(mode="json") for f in t.simulator_faults],
        "rubrics": [r.model_dump(mode="json") for r in t.rubrics],
        "effects": t.effects,
        "transcript": [
            {
                "role": e.role,
                "content": e.content,
                "tool_calls": [
                    {"name": c.name, "arguments": c.arguments, "raw_arguments": c.raw_arguments} for c in e.tool_calls
                ],
                "tool_name": e.tool_name,
                "is_error": e.is_error,
                "error_kind": e.error_kind,
            }
            for e in t.transcript.entries
        ],
    }


def _asset(name: str) -> str:
    return resources.files("statebox.report").joinpath(name).read_text(encoding="utf-8")


def render_html(loaded: LoadedRuns, report: dict[str, Any]) -> str:
    """The whole page as one string: template, stylesheet, scripts and data inlined."""
    template = _asset("template.html")
    for marker in (DATA, CSS, JS):
        if template.count(marker) != 1:
            raise RuntimeError(f"report/template.html must contain {marker} exactly once")
    script = "\n".join(_asset(name) for name in SCRIPTS)
    # Data last, so no text inside it is ever taken for a marker.
    page = template.replace(CSS, _asset("report.css")).replace(JS, script)
    return page.replace(DATA, embed_json(page_data(loaded, report)))


def write_html(path: Path, loaded: LoadedRuns, report: dict[str, Any]) -> None:
    """Write the page, creating parent directories."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_html(loaded, report), encoding="utf-8")
