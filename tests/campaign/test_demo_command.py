"""`statebox demo` (the README's main job) runs both campaigns and writes the report, with no key."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

STATEBOX = str(Path(sys.executable).with_name("statebox"))


def test_demo_runs_both_campaigns_and_writes_the_html_report(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    done = subprocess.run(
        [STATEBOX, "demo", "--out", str(out), "--repeat", "1"], capture_output=True, text=True, env=env, timeout=180
    )
    assert done.returncode == 0, done.stderr
    reference = [json.loads(line) for line in (out / "reference" / "trials.jsonl").read_text().splitlines()]
    flaky = [json.loads(line) for line in (out / "fake-flaky" / "trials.jsonl").read_text().splitlines()]
    assert reference and all(r["passed"] for r in reference), "the reference agent passes every task"
    assert len(flaky) == len(reference) and all(r["model"] == "openai:fake" for r in flaky)
    assert (out / "report.html").stat().st_size > 10_000
    assert "pass@1" in done.stdout, done.stdout[-2000:]

    again = subprocess.run(
        [STATEBOX, "demo", "--out", str(out), "--repeat", "1"], capture_output=True, text=True, env=env, timeout=180
    )
    assert again.returncode == 0, f"a second demo replaces the first: {again.stderr}"
