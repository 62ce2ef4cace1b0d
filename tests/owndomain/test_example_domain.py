"""The worked example of docs/your-own-domain.md, examples/own_domain: its 20 tasks all validate, the reference
agent passes every one and doing nothing passes none (the counts the doc gives)."""

from __future__ import annotations

import json
from pathlib import Path

from owndomain_kit import statebox

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "own_domain"
DOC = Path(__file__).resolve().parents[2] / "docs" / "your-own-domain.md"


def _passed(out: Path) -> list[bool]:
    return [json.loads(line)["passed"] for line in (out / "trials.jsonl").read_text().splitlines()]


def test_all_twenty_tasks_of_the_example_validate() -> None:
    done = statebox("validate", str(EXAMPLE), "--json")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    problems = {t["id"]: t["problems"] for t in json.loads(done.stdout)["tasks"]}
    assert len(problems) == 20 and not any(problems.values()), {k: v for k, v in problems.items() if v}


def test_the_reference_agent_passes_every_example_task_and_doing_nothing_none(tmp_path: Path) -> None:
    for agent in ("reference", "noop"):
        done = statebox("run", str(EXAMPLE), "--agent", agent, "--out", str(tmp_path / agent))
        assert done.returncode == 0, done.stderr
    assert _passed(tmp_path / "reference") == [True] * 20 and _passed(tmp_path / "noop") == [False] * 20


def test_the_doc_gives_the_count_validate_prints() -> None:
    done = statebox("validate", str(EXAMPLE))
    said = done.stdout.strip().splitlines()[-1]
    assert said.endswith("20/20 tasks pass every check"), said
    assert "20/20 tasks pass every check" in DOC.read_text(encoding="utf-8"), "docs/your-own-domain.md lost its count"
