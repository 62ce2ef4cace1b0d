"""Reports over run directories: `report --json`, the terminal tables, the HTML page, `compare`.

`load_runs` reads and merges directories; `build_report` computes every number of metrics.md per
(suite, agent, model) and per domain; `render_report`, `render_html` and `compare` present them.
"""

from statebox.report.aggregate import RunGroup, build_report, group_runs
from statebox.report.compare import compare, pick_side, render_comparison
from statebox.report.html import render_html, write_html
from statebox.report.runs import LoadedRuns, ReportInputError, load_runs
from statebox.report.terminal import render_report

__all__ = [
    "LoadedRuns",
    "ReportInputError",
    "RunGroup",
    "build_report",
    "compare",
    "group_runs",
    "load_runs",
    "pick_side",
    "render_comparison",
    "render_html",
    "render_report",
    "write_html",
]
