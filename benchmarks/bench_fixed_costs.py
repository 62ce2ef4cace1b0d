"""Fixed costs once timed by tests with tight wall-clock bounds (moved here so load cannot fail a test).

    python benchmarks/bench_fixed_costs.py

Prints the median of 5 runs of: building each built-in domain's snapshot (was "under a second"),
and a 2,000-resample bootstrap of the mean over 500 tasks (was "under 0.5 s").
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from statebox.metrics import bootstrap_mean
from statebox.tasks.worlds import discover_domains
from statebox.world import Snapshot


def median_seconds(fn: Callable[[], object], runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    for name, domain in sorted(discover_domains().items()):
        seconds = median_seconds(lambda: Snapshot.build(domain.world))  # noqa: B023 - called at once
        print(f"snapshot build {name:<16} {seconds * 1000:8.1f} ms")
    rng = random.Random(7)
    values = [rng.random() for _ in range(500)]
    seconds = median_seconds(lambda: bootstrap_mean(values, resamples=2000, seed=0))
    print(f"bootstrap mean, 500 tasks x 2000 {seconds * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
