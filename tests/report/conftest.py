"""Synthetic run directories with known pass/fail patterns, costs, signatures and discrepancies.

The standard run: suite `builtin`, agent `llm`, model `openai:gpt-test`, 4 repeats, 5 tasks.

    task  domain     attempts   c   failure signature       discrepancy kinds
    r1    retail     P P P P    4   -                       -
    r2    retail     P F P F    2   wrong_state_update      wrong_value
    r3    retail     F F F F    0   no_state_change         missing_effect
    i1    insurance  P P P F    3   tool_usage              missing_effect, extra_effect
    i2    insurance  F P F F    1   incomplete_resolution   missing_effect

Cost per attempt: agent $0.01 (retail) or $0.02 (insurance), user $0.002, judge $0.001.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from statebox.agents.transcript import Entry, ToolCallEntry, Transcript
from statebox.judge import Discrepancy
from statebox.runner.errors import ErrorKind
from statebox.runner.record import ErrorRecord, TrialRecord, trial_id

SUITE, AGENT, MODEL = "builtin", "llm", "openai:gpt-test"
HOSTILE_TEXT = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> & </script>'

PATTERNS: dict[str, tuple[str, str]] = {
    "r1": ("retail", "PPPP"),
    "r2": ("retail", "PFPF"),
    "r3": ("retail", "FFFF"),
    "i1": ("insurance", "PPPF"),
    "i2": ("insurance", "FPFF"),
}
FAILURES: dict[str, tuple[str, list[Discrepancy]]] = {
    "r2": (
        "wrong_state_update",
        [
            Discrepancy(
                kind="wrong_value", table="orders", key="O-2", field="status", expected="cancelled", actual="pending"
            )
        ],
    ),
    "r3": (
        "no_state_change",
        [
            Discrepancy(
                kind="missing_effect",
                table="refunds",
                key=None,
                field=None,
                expected={"order_id": "O-3", "amount": 12.5},
                actual=None,
            )
        ],
    ),
    "i1": (
        "tool_usage",
        [
            Discrepancy(
                kind="missing_effect", table="claims", key="C-1", field="state", expected="approved", actual=None
            ),
            Discrepancy(kind="extra_effect", table="emails", key=7, field=None, expected=None, actual={"to": "x@y.z"}),
        ],
    ),
    "i2": (
        "incomplete_resolution",
        [Discrepancy(kind="missing_effect", table="policies", key="P-9", field="tier", expected="gold", actual=None)],
    ),
}


def make_trial(
    task_id: str,
    domain: str,
    repeat: int,
    passed: bool,
    *,
    model: str | None = MODEL,
    agent: str = AGENT,
    suite: str = SUITE,
    agent_cost: float | None = 0.01,
    signature: str | None = None,
    discrepancies: Sequence[Discrepancy] = (),
) -> TrialRecord:
    """One finished attempt with a small, realistic transcript and effects."""
    tid = trial_id(suite, task_id, agent, model, repeat)
    reply = f"Done with {task_id}, attempt {repeat}." + (" " + HOSTILE_TEXT if task_id == "r2" else "")
    transcript = Transcript(
        entries=[
            Entry(role="customer", content=f"Please help with {task_id}."),
            Entry(role="agent", tool_calls=[ToolCallEntry(id="c1", name="get_order", arguments={"order_id": task_id})]),
            Entry(role="tool", tool_name="get_order", tool_call_id="c1", content='{"status": "pending"}'),
            Entry(role="agent", content=reply),
        ],
        finish_reason="customer_ended",
        customer_end_reason="satisfied",
    )
    effects = {
        "inserted": {},
        "updated": {"orders": [{"key": task_id, "fields": {"status": {"before": "pending", "after": "shipped"}}}]},
        "deleted": {},
    }
    return TrialRecord(
        trial_id=tid,
        suite=suite,
        task_id=task_id,
        domain=domain,
        agent=agent,
        model=model,
        user="scripted",
        repeat=repeat,
        seed=repeat,
        passed=passed,
        state_passed=passed,
        finish_reason="customer_ended",
        signature=None if passed else signature,
        discrepancies=[] if passed else list(discrepancies),
        cost_usd={"agent": agent_cost, "user": 0.002, "judge": 0.001},
        timings={"total_s": random.random(), "setup_s": random.random()},
        effects=effects,
        transcript=transcript,
    )


def standard_trials(model: str | None = MODEL, agent: str = AGENT) -> list[TrialRecord]:
    """The 20 attempts of the table above."""
    trials = []
    for task_id, (domain, pattern) in PATTERNS.items():
        signature, discrepancies = FAILURES.get(task_id, (None, []))
        for repeat, mark in enumerate(pattern):
            trials.append(
                make_trial(
                    task_id,
                    domain,
                    repeat,
                    mark == "P",
                    model=model,
                    agent=agent,
                    agent_cost=0.01 if domain == "retail" else 0.02,
                    signature=signature,
                    discrepancies=discrepancies,
                )
            )
    return trials


def make_error(
    task_id: str, repeat: int, *, model: str | None = MODEL, kind: ErrorKind = "model_endpoint"
) -> ErrorRecord:
    return ErrorRecord(
        trial_id=trial_id(SUITE, task_id, AGENT, model, repeat),
        suite=SUITE,
        task_id=task_id,
        agent=AGENT,
        model=model,
        repeat=repeat,
        kind=kind,
        message="HTTP 500 after 3 retries",
        at="2025-01-01T00:00:00+00:00",
    )


def write_run(
    path: Path,
    trials: Sequence[TrialRecord],
    errors: Sequence[ErrorRecord] = (),
    *,
    repeat: int = 4,
    extra_lines: Sequence[str] = (),
    manifest: dict[str, Any] | None = None,
) -> Path:
    """A run directory: manifest.json, trials.jsonl (plus raw extra lines) and errors.jsonl."""
    path.mkdir(parents=True, exist_ok=True)
    base = {
        "suite": SUITE,
        "agent": AGENT,
        "models": [MODEL],
        "repeat": repeat,
        "tasks": len(PATTERNS),
        "started_at": "2025-01-01T00:00:00",
    }
    (path / "manifest.json").write_text(json.dumps(manifest if manifest is not None else base))
    lines = [t.model_dump_json() for t in trials] + list(extra_lines)
    (path / "trials.jsonl").write_text("".join(line + "\n" for line in lines))
    if errors:
        (path / "errors.jsonl").write_text("".join(e.model_dump_json() + "\n" for e in errors))
    return path


CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _require_browser() -> Any:
    """Playwright's sync API, or skip (locally) / fail (in CI) naming what is missing."""
    problem = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        problem = "the playwright Python package is not installed (pip install -e '.[dev]')"
    if problem is None and not CHROMIUM.exists():
        problem = f"{CHROMIUM} is missing: apt-get install -y chromium"
    if problem is not None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"the HTML report browser test cannot run in CI: {problem}")
        pytest.skip(problem)
    return sync_playwright


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium per test module (the browser tests' pages open in it)."""
    sync_playwright = _require_browser()
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


class Synth:
    """The helpers above, handed to tests as a fixture (test modules do not import conftest)."""

    SUITE, AGENT, MODEL, HOSTILE_TEXT, PATTERNS, FAILURES = SUITE, AGENT, MODEL, HOSTILE_TEXT, PATTERNS, FAILURES
    make_trial = staticmethod(make_trial)
    make_error = staticmethod(make_error)
    standard_trials = staticmethod(standard_trials)
    write_run = staticmethod(write_run)


@pytest.fixture
def app() -> typer.Typer:
    """`report` and `compare` on a typer app of their own."""
    from statebox.cli.report import register  # here, so tests without the CLI do not import every command

    app = typer.Typer()

    @app.callback()
    def _root() -> None:
        """statebox (test app)."""

    register(app)
    return app


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner(env={"COLUMNS": "140"})


@pytest.fixture(scope="session")
def synth() -> type[Synth]:
    return Synth


@pytest.fixture
def trials() -> list[TrialRecord]:
    return standard_trials()


@pytest.fixture
def run_dir(tmp_path: Path, trials: list[TrialRecord]) -> Path:
    return write_run(tmp_path / "run", trials)
