"""CPU the `statebox` command spends before it answers: help, suites, one suite's tasks, a one-attempt run.

    python benchmarks/bench_cli_start.py              # 7 runs of each command (medians)
    python benchmarks/bench_cli_start.py --runs 3

Each command runs as a whole process, as a user types it; its CPU (user + system, from the kernel's
accounting of the waited-for child and its children) is what is measured, not the wall time, so a
loaded machine inflates the numbers less. The baseline, measured in the same run, is the machine's
bare interpreter start-up (`python -c pass`) and the start-up of the libraries every command needs
(`python -c "import typer, rich, pydantic"`). Targets (#31): help, suites, tasks under 0.5 s of CPU;
a one-attempt run under 1.5 s.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

PY = sys.executable
STATEBOX = str(Path(PY).with_name("statebox"))
TASK = "account_taken_over_cancel_request_security_handoff"  # a retail task (tasks are ordered by id)


def commands(out: Path) -> list[tuple[str, list[str], float | None]]:
    """(label, argv, target CPU seconds or None for a baseline)."""
    return [
        ("python -c pass", [PY, "-c", "pass"], None),
        ("import typer, rich, pydantic", [PY, "-c", "import typer, rich, pydantic"], None),
        ("statebox --help", [STATEBOX, "--help"], 0.5),
        ("statebox suites", [STATEBOX, "suites"], 0.5),
        ("statebox tasks retail", [STATEBOX, "tasks", "retail"], 0.5),
        ("statebox run (1 attempt)", [STATEBOX, "run", "retail", "--tasks", TASK, "--agent", "reference",
                                      "--user", "scripted", "--no-progress", "--out", str(out)], 1.5),
    ]


def child_cpu(argv: list[str]) -> float:
    """User + system CPU seconds of one run of `argv` (and the processes it waited for)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"error: {' '.join(argv)} exited {done.returncode}: {done.stderr.strip()[-300:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for i, (label, cmd, target) in enumerate(commands(Path(tmp) / "run")):
            samples = []
            for r in range(args.runs):
                run_cmd = [c.replace(str(Path(tmp) / "run"), str(Path(tmp) / f"run{i}-{r}")) for c in cmd]
                samples.append(child_cpu(run_cmd))
            rows.append((label, statistics.median(samples), min(samples), max(samples), target))
    bare = rows[0][1]
    libs = rows[1][1]
    print(f"{'command':<32} {'median CPU s':>12} {'min':>6} {'max':>6} {'x bare':>7} {'x libs':>7} {'target':>7}")
    for label, med, lo, hi, target in rows:
        ok = "" if target is None else (" ok" if med <= target else " OVER")
        ratio_bare = f"{med / bare:7.1f}" if bare > 0 else "      -"
        ratio_libs = f"{med / libs:7.2f}" if libs > 0 else "      -"
        shown = f"{target:>7.2f}" if target is not None else "      -"
        print(f"{label:<32} {med:12.3f} {lo:6.3f} {hi:6.3f} {ratio_bare} {ratio_libs} {shown}{ok}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
