"""Reports over run directories: `report --json`, the terminal tables, the HTML page, `compare`.

`load_runs` reads and merges directories; `report_document` computes every number of
docs/metrics.md per (suite, agent, model) and per domain as the `ReportDocument` model (models.py);
`build_report` is the same as JSON data; `render_report`, `render_html` and `compare_document`
present them.
"""

from statebox.report.aggregate import RunGroup, build_report, group_runs, report_document
from statebox.report.compare import compare, compare_document, pick_side, render_comparison
from statebox.report.html import render_html, write_html
from statebox.report.models import CompareDocument, ReportDocument, RunEntry, Summary
from statebox.report.runs import LoadedRuns, ReportInputError, load_runs
from statebox.report.terminal import render_report

__all__ = [
    "CompareDocument",
    "LoadedRuns",
    "ReportDocument",
    "ReportInputError",
    "RunEntry",
    "RunGroup",
    "Summary",
    "build_report",
    "compare",
    "compare_document",
    "group_runs",
    "load_runs",
    "pick_side",
    "render_comparison",
    "render_html",
    "render_report",
    "report_document",
    "write_html",
]
