"""`statebox report --html FILE`: the page (template.html + summaries + attempt index) and its chunks.

The page carries the report document and a light index of every attempt; each attempt's transcript
and diff are in chunk files beside it (`FILE` without its suffix + `.files/attempts-0001.js`, ...),
loaded when the attempt is opened (html_chunks.py). A report whose attempts fit in one chunk is a
single file: the chunk is inlined as JSON. The page's own JavaScript draws every chart as inline SVG
and builds every node with textContent, so the data (transcripts hold arbitrary text) is never parsed
as markup; every JSON text is escaped so that no string in it can close a <script> element.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import statebox
from statebox.metrics import ParetoPoint, pareto_frontier
from statebox.report.aggregate import RunGroup, domain_of, group_runs, labels, task_domains
from statebox.report.html_chunks import CHUNK_FILE, AttemptView, Chunk, Chunker, ChunkLimits, index_row, report_id
from statebox.report.runs import FullRecords, LoadedRuns
from statebox.report.seed_figures import SEED_FAILURE_ANALYSIS
from statebox.report.trial_summary import TrialSummary

DATA, CSS, JS, CHUNK = "__STATEBOX_DATA__", "/*__STATEBOX_CSS__*/", "/*__STATEBOX_JS__*/", "<!--__STATEBOX_CHUNK__-->"
SCRIPTS = (
    "report_dom.js",
    "report_chunks.js",
    "report_charts.js",
    "report_flags.js",
    "report_failures.js",
    "report_drilldown.js",
    "report_main.js",
)
_SCRIPT_SAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def embed_json(data: Any) -> str:
    """JSON text that is safe inside a <script> element (and as a JavaScript expression)."""
    return _script_safe(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def _script_safe(text: str) -> str:
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


def chunk_folder(path: Path) -> Path:
    """Where the chunks of the page at `path` go: `report.html` -> `report.files`."""
    folder = path.with_name(path.stem + ".files")
    return folder if folder != path else path.with_name(path.name + ".files")


@dataclass
class ChunkSink:
    """Receives chunks as they fill. The first is held back: alone, it is inlined into the page."""

    folder: Path
    report_id: str
    held: Chunk | None = None
    written: list[Path] = field(default_factory=list)

    def __call__(self, chunk: Chunk) -> None:
        if self.held is None and not self.written:
            self.held = chunk
            return
        if self.held is not None:
            self._start_folder()
            self._write(self.held)
            self.held = None
        self._write(chunk)

    @property
    def inline(self) -> Chunk | None:
        """The only chunk, when there is exactly one (the page is then a single file)."""
        return self.held if not self.written else None

    def _start_folder(self) -> None:
        remove_stale_chunks(self.folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    def _write(self, chunk: Chunk) -> None:
        target = self.folder / CHUNK_FILE.format(chunk.number)
        target.write_text(chunk.script(self.report_id), encoding="utf-8")
        self.written.append(target)


def remove_stale_chunks(folder: Path) -> None:
    """Delete the chunk files an earlier report left in `folder` (only those), and the folder if then empty."""
    if not folder.is_dir():
        return
    for old in folder.glob("attempts-*.js"):
        old.unlink()
    if not any(folder.iterdir()):
        folder.rmdir()


def page_data(loaded: LoadedRuns, report: dict[str, Any], sink: ChunkSink, limits: ChunkLimits) -> dict[str, Any]:
    """Everything the page carries: the report entries, each run's task index, where the chunks are.

    Every attempt's full view goes to `sink` as chunks fill, in run, task and repeat order: each record is
    read whole from its file only then, so one chunk's records are held at a time."""
    entries: list[dict[str, Any]] = report["runs"]
    names = labels(entries)
    on_frontier = frontier_labels(entries, names)
    groups, domains = group_runs(loaded), task_domains(loaded)
    chunker = Chunker(limits, sink)
    with FullRecords() as full:
        runs = [
            {"label": name, "on_frontier": name in on_frontier, "summary": entry}
            | run_index(group, domains, chunker, full)
            for name, entry, group in zip(names, entries, groups, strict=True)
        ]
    chunker.close()
    return {
        "statebox_version": statebox.__version__,
        "warnings": list(loaded.warnings),
        "seed_failure_analysis": SEED_FAILURE_ANALYSIS.model_dump(mode="json"),
        "report_id": sink.report_id,
        "chunks": {"count": chunker.count, "folder": sink.folder.name},
        "runs": runs,
    }


def run_index(
    group: RunGroup, domains: dict[tuple[str, str], str], chunker: Chunker, full: FullRecords
) -> dict[str, Any]:
    """A run's tasks (sorted), each with its attempts' index rows in repeat order and its outstanding errors."""
    by_task: dict[str, list[TrialSummary]] = {}
    task_domain: dict[str, str] = {}
    for t in group.trials:
        by_task.setdefault(t.task_id, []).append(t)
        task_domain.setdefault(t.task_id, t.domain)
    errors: dict[str, list[dict[str, Any]]] = {}
    for e in group.errors:
        errors.setdefault(e.task_id, []).append({"repeat": e.repeat, "kind": e.kind, "message": e.message})
        task_domain.setdefault(e.task_id, domain_of(e, domains))
    signatures: dict[str, int] = {}
    tasks = []
    for task_id in sorted(task_domain):
        rows = [
            index_row(t, signatures, chunker.add(_script_safe(full.read_as(t, AttemptView).model_dump_json())))
            for t in sorted(by_task.get(task_id, []), key=lambda t: t.repeat)
        ]
        task_errors = sorted(errors.get(task_id, []), key=lambda e: e["repeat"])
        tasks.append({"task_id": task_id, "domain": task_domain[task_id], "attempts": rows, "errors": task_errors})
    return {"signatures": list(signatures), "tasks": tasks}


def _asset(name: str) -> str:
    return resources.files("statebox.report").joinpath(name).read_text(encoding="utf-8")


def render_html(data: dict[str, Any], inline: Chunk | None) -> str:
    """The page as one string: template, stylesheet, scripts and data inlined (and the chunk, if only one)."""
    template = _asset("template.html")
    for marker in (DATA, CSS, JS, CHUNK):
        if template.count(marker) != 1:
            raise RuntimeError(f"report/template.html must contain {marker} exactly once")
    script = "\n".join(_asset(name) for name in SCRIPTS)
    chunk = "" if inline is None else _inline_chunk(inline)
    # Data last, so no text inside it is ever taken for a marker.
    page = template.replace(CSS, _asset("report.css")).replace(JS, script)
    return page.replace(CHUNK, chunk).replace(DATA, embed_json(data))


def _inline_chunk(chunk: Chunk) -> str:
    return f'<script type="application/json" id="statebox-chunk-{chunk.number}">{chunk.json()}</script>'


def _id_parts(loaded: LoadedRuns, report: dict[str, Any]) -> Iterator[str]:
    yield statebox.__version__
    yield embed_json(report)
    for t in loaded.trials:
        yield t.trial_id
        yield str(t.transcript_finish)
        yield str(t.entries)


@dataclass(frozen=True)
class WrittenReport:
    """What `write_html` wrote: the page and, for a report of several chunks, the chunk files."""

    page: Path
    chunks: list[Path]


def write_html(
    path: Path, loaded: LoadedRuns, report: dict[str, Any], *, limits: ChunkLimits | None = None
) -> WrittenReport:
    """Write the chunks (if more than one), then the page, creating parent directories."""
    path.parent.mkdir(parents=True, exist_ok=True)
    sink = ChunkSink(chunk_folder(path), report_id(_id_parts(loaded, report)))
    data = page_data(loaded, report, sink, limits or ChunkLimits())
    if not sink.written:  # a single-file page: no chunks of an earlier report are left beside it
        remove_stale_chunks(sink.folder)
        data["chunks"]["folder"] = None
    path.write_text(render_html(data, sink.inline), encoding="utf-8")
    return WrittenReport(path, list(sink.written))
