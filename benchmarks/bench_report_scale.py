"""The HTML report at published scale: 5 runs of 507 tasks x 20 repeats (50,700 attempts) in headless Chromium.

    python benchmarks/bench_report_scale.py                     # generate once into .cache/, then measure
    python benchmarks/bench_report_scale.py --runs 1 --tasks 50 # a quick look
    python benchmarks/bench_report_scale.py --fresh             # generate the runs again
    python benchmarks/bench_report_scale.py --report-only       # only `report`, `report --json`, `report --html`

The runs are written through the project's own record writer (`RunDir.append_trial`, as `statebox run`
writes them): each attempt has a transcript of about 10 entries (customer and agent messages, tool calls
with arguments, JSON tool results), effects, and for a failure its signature and discrepancies. Then the
real `statebox report DIR ... --html` runs as a subprocess (its wall time and peak RSS, from wait4), and
the page is opened from file:// in headless Chromium (/usr/bin/chromium through Playwright):

- page size: the HTML file, and everything the first screen loads (the HTML plus the chunk of the
  attempt the drill-down opens with);
- first screen: from navigation to `<html data-ready>`, which the page sets once it has drawn the
  header, leaderboard, charts and tables; and to the drill-down's first attempt drawn from its chunk;
- drill-down: clicking a task, then one of its attempts whose chunk is not yet loaded, until the
  attempt's detail is drawn (`#attempt-view[data-loaded]`), for several attempts across runs.

Targets (issue #22): first screen <= 3 s, page <= 10 MB, drill-down <= 1 s.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from statebox.agents.transcript import Entry, ToolCallEntry, Transcript
from statebox.judge import Discrepancy
from statebox.judge.verdict import DiscrepancyKind
from statebox.runner.manifest import Manifest
from statebox.runner.record import TrialRecord, trial_id
from statebox.runner.store import RunDir

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "bench-report-scale"
CHROMIUM = "/usr/bin/chromium"
STATEBOX = str(Path(sys.executable).with_name("statebox"))
GENERATOR = 1  # bump when the generated records change, so a cached copy is not reused
SUITE, AGENT = "synthetic", "llm"
DOMAINS = ("airline", "banking", "consulting", "neobank", "retail")
SIGNATURES = (
    "tool_usage",
    "tool_usage",
    "tool_usage",
    "wrong_state_update",
    "incomplete_resolution",
    "no_state_change",
)
LOADED = '#attempt-view[data-loaded="true"]'
TARGETS = {"first_screen_s": 3.0, "page_mb": 10.0, "drill_down_s": 1.0}
VOCABULARY = (
    "account booking card charge confirm customer date refund order policy reservation ticket transfer update "
    "verify balance fee payment request status limit flight seat invoice address change cancel please thanks "
    "could would the a to for with your my this that is are we can will not now"
)


def sentence(rng: random.Random, words: int) -> str:
    vocabulary = VOCABULARY.split()
    return " ".join(rng.choice(vocabulary) for _ in range(words)).capitalize() + "."


def tool_result(rng: random.Random, domain: str) -> str:
    rows = []
    for _ in range(rng.randint(2, 5)):
        status = rng.choice(("open", "closed", "pending"))
        rows.append(
            f'{{"id": "{domain[:3].upper()}-{rng.randrange(10**6):06d}", "status": "{status}", '
            f'"amount": {rng.randrange(10**5) / 100}, "note": "{sentence(rng, 8)}"}}'
        )
    return '{"rows": [' + ", ".join(rows) + "]}"


def transcript(rng: random.Random, domain: str) -> Transcript:
    """About 10 entries: the customer's ask, tool calls and their results, replies, a closing message."""
    entries = [Entry(role="customer", content=sentence(rng, rng.randint(15, 40)))]
    for turn in range(rng.randint(3, 4)):
        name = f"{domain}_{rng.choice(('get', 'list', 'update'))}_record"
        arguments = {"record_id": f"R-{rng.randrange(10**5)}", "reason": sentence(rng, 6)}
        call = ToolCallEntry(id=f"c{turn}", name=name, arguments=arguments)
        entries += [
            Entry(role="agent", content=sentence(rng, rng.randint(5, 20)), tool_calls=[call]),
            Entry(role="tool", tool_name=call.name, tool_call_id=call.id, content=tool_result(rng, domain)),
        ]
    entries += [
        Entry(role="agent", content=sentence(rng, rng.randint(30, 70))),
        Entry(role="customer", content=sentence(rng, rng.randint(5, 15))),
    ]
    return Transcript(entries=entries, finish_reason="customer_ended", customer_end_reason="satisfied")


def discrepancies(rng: random.Random, signature: str) -> list[Discrepancy]:
    by_signature: dict[str, DiscrepancyKind] = {
        "wrong_state_update": "wrong_value",
        "no_state_change": "missing_effect",
    }
    kinds: tuple[DiscrepancyKind, ...] = ("wrong_value", "missing_effect", "extra_effect")
    kind = by_signature[signature] if signature in by_signature else rng.choice(kinds)
    return [
        Discrepancy(
            kind=kind,
            table=rng.choice(("orders", "tickets", "accounts")),
            key=f"K-{rng.randrange(999)}",
            field="status",
            expected="closed",
            actual=None if kind == "missing_effect" else "open",
        )
        for _ in range(rng.randint(1, 3))
    ]


def trial(rng: random.Random, model: str, task: str, domain: str, repeat: int, p_pass: float) -> TrialRecord:
    passed = rng.random() < p_pass
    signature = None if passed else rng.choice(SIGNATURES)
    effects = {"inserted": {}, "updated": {"tickets": [{"key": f"T-{rng.randrange(999)}",
               "fields": {"status": {"before": "open", "after": "closed"}}}]}, "deleted": {}}  # fmt: skip
    return TrialRecord(
        trial_id=trial_id(SUITE, task, AGENT, model, repeat), suite=SUITE, task_id=task, domain=domain,
        agent=AGENT, model=model, user="llm", repeat=repeat, seed=repeat, passed=passed, state_passed=passed,
        finish_reason="customer_ended", customer_end_reason="satisfied", signature=signature,
        discrepancies=[] if signature is None else discrepancies(rng, signature),
        cost_usd={"agent": 0.002 + rng.random() * 0.01, "user": 0.001, "judge": 0.0}, effects=effects,
        transcript=transcript(rng, domain),
    )  # fmt: skip


def generate(root: Path, runs: int, tasks: int, repeats: int) -> list[Path]:
    """The run directories (cached): written attempt by attempt with RunDir.append_trial."""
    dirs = [root / f"model-{m}" for m in range(runs)]
    if (root / "complete").exists():
        return dirs
    shutil.rmtree(root, ignore_errors=True)
    started = time.perf_counter()
    for m, path in enumerate(dirs):
        model = f"openai:model-{m}"
        rng = random.Random(m)
        run = RunDir(path)
        run.write_manifest(Manifest(suite=SUITE, agent=AGENT, models=[model], repeat=repeats, tasks=tasks))
        for t in range(tasks):
            task, domain = f"task_{t:04d}", DOMAINS[t % len(DOMAINS)]
            p_pass = min(0.95, max(0.05, rng.gauss(0.45 + 0.08 * m, 0.3)))
            for repeat in range(repeats):
                run.append_trial(trial(rng, model, task, domain, repeat, p_pass))
        print(f"  generated {path.name}: {tasks * repeats:,} attempts ({time.perf_counter() - started:.0f} s)")
    (root / "complete").write_text("")
    return dirs


@dataclass
class ReportRun:
    seconds: float
    cpu_seconds: float  # user + system of the report process
    peak_rss: int  # bytes


def run_report(dirs: list[Path], html: Path | None, *options: str) -> ReportRun:
    """The real `statebox report DIR ... [--html FILE]`, its wall time, CPU and peak RSS (wait4's rusage)."""
    started = time.perf_counter()
    cmd = [STATEBOX, "report", *map(str, dirs), *options, *([] if html is None else ["--html", str(html)])]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"statebox report failed ({proc.returncode}): {err.decode()[-2000:]}")
    return ReportRun(time.perf_counter() - started, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024)


def file_bytes(urls: list[str]) -> int:
    return sum(Path(unquote(urlparse(u).path)).stat().st_size for u in set(urls) if u.startswith("file://"))


@dataclass
class Browsed:
    first_screen_s: float  # from goto() until Playwright sees <html data-ready>
    first_screen_in_page_s: float  # the page's own performance.now() when it set data-ready
    first_attempt_s: float
    first_screen_bytes: int
    opened_s: list[float]  # a task clicked: its attempt drawn from a chunk read for the first time
    switched_s: list[float]  # another attempt of the same task clicked


def timed(page: Any, target: Any) -> float:
    """Seconds from clicking `target` until the attempt's detail is drawn."""
    started = time.perf_counter()
    target.click()
    page.wait_for_selector(LOADED, timeout=120_000)
    return time.perf_counter() - started


def browse(html: Path, attempts_to_open: int) -> Browsed:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--headless", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        problems: list[str] = []
        requests: list[str] = []
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.on("request", lambda r: requests.append(r.url))
        started = time.perf_counter()
        page.goto(html.as_uri(), wait_until="commit")
        page.wait_for_selector("html[data-ready]", timeout=120_000)
        first_screen = time.perf_counter() - started
        drawn_in_page = int(page.get_attribute("html", "data-ready") or 0) / 1e3
        page.wait_for_selector(LOADED, timeout=120_000)
        first_attempt = time.perf_counter() - started
        first_bytes = file_bytes(requests)
        opened, switched = [], []
        runs = page.eval_on_selector_all("#drill-run option", "os => os.map(o => o.value)") or ["0"]
        for i in range(attempts_to_open):
            if len(runs) > 1:
                page.select_option("#drill-run", runs[(i + 1) % len(runs)])
                page.wait_for_selector(LOADED, timeout=120_000)
            rows = page.query_selector_all("tr.task-row")
            row = rows[(len(rows) * (2 * i + 1)) // (2 * attempts_to_open)]  # spread over the run's tasks
            opened.append(timed(page, row))  # the task's attempt drawn from a chunk not read before
            buttons = page.query_selector_all("#attempt-buttons button.attempt")
            switched.append(timed(page, buttons[-1 - i % len(buttons)]))  # another attempt of the same task
        if problems:
            sys.exit(f"the page reported errors: {problems[:3]}")
        browser.close()
    return Browsed(first_screen, drawn_in_page, first_attempt, first_bytes, opened, switched)


def measure_reports(dirs: list[Path], out: Path) -> None:
    """The three ways of reading the runs, each a fresh process: terminal tables, JSON, HTML."""
    shutil.rmtree(out, ignore_errors=True)
    print(f"{'statebox report':<28} {'wall':>8} {'CPU':>8} {'peak RSS':>10}")
    for name, html, options in (
        ("report", None, ()),
        ("report --json", None, ("--json",)),
        ("report --html", out / "report.html", ()),
    ):
        run = run_report(dirs, html, *options)
        print(f"{name:<28} {run.seconds:>6.1f} s {run.cpu_seconds:>6.1f} s {run.peak_rss / 2**20:>6,.0f} MiB")


def mb(n: float) -> str:
    return f"{n / 1e6:,.1f} MB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tasks", type=int, default=507)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--open", type=int, default=5, help="tasks opened in the drill-down, each in the next run")
    parser.add_argument("--browse-only", action="store_true", help="reuse the last report written, only browse it")
    parser.add_argument("--fresh", action="store_true", help="generate the runs again instead of using .cache/")
    parser.add_argument("--report-only", action="store_true", help="measure the report commands, open no browser")
    args = parser.parse_args()
    root = CACHE / f"v{GENERATOR}-{args.runs}x{args.tasks}x{args.repeats}"
    if args.fresh:
        shutil.rmtree(root, ignore_errors=True)
    attempts = args.runs * args.tasks * args.repeats
    print(f"{args.runs} runs x {args.tasks} tasks x {args.repeats} repeats = {attempts:,} attempts in {root}")
    dirs = generate(root, args.runs, args.tasks, args.repeats)
    trials_bytes = sum((d / "trials.jsonl").stat().st_size for d in dirs)
    print(f"  trials.jsonl: {mb(trials_bytes)} in all; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    out = root / "report"
    if args.report_only:
        return measure_reports(dirs, out)
    html = out / "report.html"
    report = None
    if not (args.browse_only and html.exists()):
        shutil.rmtree(out, ignore_errors=True)
        report = run_report(dirs, html)
    chunks = sorted((out / "report.files").glob("attempts-*.js"))
    chunk_bytes = sum(c.stat().st_size for c in chunks)
    page_bytes = html.stat().st_size
    browsed = browse(html, args.open)
    opened, switched = browsed.opened_s, browsed.switched_s
    rows: list[tuple[str, str, Any]] = (
        []
        if report is None
        else [
            ("statebox report --html: wall", f"{report.seconds:.1f} s", None),
            ("statebox report --html: CPU (user + system)", f"{report.cpu_seconds:.1f} s", None),
            ("statebox report --html: peak RSS", f"{report.peak_rss / 2**20:,.0f} MiB", None),
        ]
    )
    rows += [
        ("page (report.html)", mb(page_bytes), page_bytes / 1e6 <= TARGETS["page_mb"]),
        ("first screen loads (page + its chunk)", mb(browsed.first_screen_bytes), None),
        (f"chunks ({len(chunks)} files, all attempts)", mb(chunk_bytes), None),
        ("first screen drawn (data-ready)", f"{browsed.first_screen_s:.2f} s",
         browsed.first_screen_s <= TARGETS["first_screen_s"]),
        ("first screen drawn, the page's own clock", f"{browsed.first_screen_in_page_s:.2f} s", None),
        ("first attempt drawn from its chunk", f"{browsed.first_attempt_s:.2f} s", None),
        (f"drill-down, task clicked (new chunk), median of {len(opened)}", f"{statistics.median(opened):.3f} s", None),
        ("drill-down, task clicked (new chunk), max", f"{max(opened):.3f} s", max(opened) <= TARGETS["drill_down_s"]),
        ("drill-down, another attempt of the task, max", f"{max(switched):.3f} s",
         max(switched) <= TARGETS["drill_down_s"]),
    ]  # fmt: skip
    print()
    for name, value, ok in rows:
        verdict = "" if ok is None else ("  target met" if ok else "  TARGET MISSED")
        print(f"{name:<44} {value:>12}{verdict}")


if __name__ == "__main__":
    main()
