"""Coverage of the report's 95% intervals: simulated campaigns against the superpopulation values.

    python benchmarks/bench_interval_coverage.py            # 8 configurations, about 2-3 minutes on one core
    python benchmarks/bench_interval_coverage.py --quick    # a quarter of the campaigns, under a minute
    python benchmarks/bench_interval_coverage.py --markdown # the table as it appears in docs/benchmarks.md

A configuration is a number of tasks T (40, 500), a repeat count n (5, 20) and a distribution of
task success rates (Beta(0.5, 0.5): most tasks nearly always or nearly never pass; Beta(5, 2): most
pass often). One simulated campaign draws T rates p_t from the distribution, n attempts per task
(each passes with probability p_t), and a cost per attempt: a task-level price u_t (log-normal,
mean 1) times 1.5 for a failed attempt (failures run longer). Run b of a paired comparison reruns
the same tasks either unchanged ("diff, no change") or with every rate improved to
p + 0.3 (1 - p) ("diff, improved").

The intervals are the ones `statebox report` and `statebox compare` print, computed by
`statebox.metrics`; each is checked against the value of the whole population of tasks, known in
closed form for Beta rates (e.g. pass^k = E[p^k], cost per success = E[spend] / E[passes]). A
ratio whose denominator was 0 (no dependable task) has only a lower bound, which covers when it
is at most the true value. "zero width" counts intervals of width 0 (there must be none). The
last rows check `compare`'s changed tasks: the share of no-change comparisons that list none, and
the mean share of tasks listed when every task improved (the test's power).
Seeded: the same arguments print the same table.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from statebox.metrics import (
    ExactTest,
    Interval,
    TaskCounts,
    compare_runs,
    cost_per_dependable_task,
    cost_per_successful_attempt,
    estimator_interval,
    pass_at_1_interval,
    pass_at_k,
    pass_hat_k,
    retention_interval,
    share_interval,
)

TASKS = (40, 500)
REPEATS = (5, 20)
RATES = {"Beta(0.5,0.5)": (0.5, 0.5), "Beta(5,2)": (5.0, 2.0)}
IMPROVEMENT = 0.3
FAIL_COST = 1.5
TARGET = 0.93


def beta_moment(a: float, b: float, k: int) -> float:
    """E[p^k] for p ~ Beta(a, b)."""
    return math.prod((a + j) / (a + b + j) for j in range(k))


def beta_fail_moment(a: float, b: float, k: int) -> float:
    """E[(1 - p)^k] for p ~ Beta(a, b)."""
    return beta_moment(b, a, k)


@dataclass(frozen=True)
class Config:
    tasks: int
    repeats: int
    rates: str

    @property
    def ab(self) -> tuple[float, float]:
        return RATES[self.rates]

    def ks(self) -> list[int]:
        return sorted({5, self.repeats})

    def truths(self) -> dict[str, float]:
        a, b = self.ab
        mean, n = a / (a + b), self.repeats
        spend = n * (FAIL_COST - (FAIL_COST - 1) * mean)  # E[u] = 1, independent of p
        values = {"pass@1": mean}
        for k in self.ks():
            values[f"pass@{k}"] = 1 - beta_fail_moment(a, b, k)
            values[f"pass^{k}"] = beta_moment(a, b, k)
        values[f"observed {n}/{n} share"] = beta_moment(a, b, n)
        values[f"retention (pass^{n} / pass@1)"] = beta_moment(a, b, n) / mean
        values["cost per success"] = spend / (n * mean)
        values["cost per dependable task"] = spend / beta_moment(a, b, n)
        values["diff, no change"] = 0.0
        values["diff, improved"] = IMPROVEMENT * (1 - mean)
        return values


@dataclass
class Tally:
    covered: int = 0
    zero_width: int = 0
    total: int = 0

    def add(self, interval: Interval | None, truth: float) -> None:
        self.total += 1
        if interval is not None and interval.contains(truth):
            self.covered += 1
        if interval is not None and interval.width == 0:
            self.zero_width += 1


@dataclass
class Result:
    config: Config
    tallies: dict[str, Tally] = field(default_factory=dict)
    null_comparisons: int = 0
    null_none_changed: int = 0
    improved_listed: float = 0.0  # summed over campaigns: share of the (all truly improved) tasks listed

    def tally(self, name: str) -> Tally:
        return self.tallies.setdefault(name, Tally())


def attempts(rng: random.Random, rates: list[float], n: int) -> list[int]:
    """Passes per task: n Bernoulli(p_t) draws each."""
    return [sum(rng.random() < p for _ in range(n)) for p in rates]


def campaign(rng: random.Random, config: Config, result: Result, truths: dict[str, float], test: ExactTest) -> None:
    a, b = config.ab
    n = config.repeats
    rates = [rng.betavariate(a, b) for _ in range(config.tasks)]
    prices = [rng.lognormvariate(-0.125, 0.5) for _ in range(config.tasks)]
    passes = attempts(rng, rates, n)
    counts = [TaskCounts(f"t{i}", n, c) for i, c in enumerate(passes)]
    spend = {t.task_id: u * (t.c + FAIL_COST * (n - t.c)) for t, u in zip(counts, prices, strict=True)}

    checks: dict[str, Interval | None] = {}
    p1 = pass_at_1_interval(counts)
    checks["pass@1"] = None if p1 is None else Interval(p1.lo, p1.hi)
    for k in config.ks():
        checks[f"pass@{k}"] = estimator_interval(counts, pass_at_k, k)
        checks[f"pass^{k}"] = estimator_interval(counts, pass_hat_k, k)
    checks[f"observed {n}/{n} share"] = share_interval([t.c == n for t in counts])
    checks[f"retention (pass^{n} / pass@1)"] = retention_interval(counts, n)
    per_success = cost_per_successful_attempt(counts, spend, repeats=n)
    per_dependable = cost_per_dependable_task(counts, spend, n)
    checks["cost per success"] = None if per_success is None else per_success.interval
    checks["cost per dependable task"] = None if per_dependable is None else per_dependable.interval

    same = [TaskCounts(t.task_id, n, c) for t, c in zip(counts, attempts(rng, rates, n), strict=True)]
    null = compare_runs(counts, same, test=test)
    better_rates = [p + IMPROVEMENT * (1 - p) for p in rates]
    better = [TaskCounts(t.task_id, n, c) for t, c in zip(counts, attempts(rng, better_rates, n), strict=True)]
    checks["diff, no change"] = null.interval
    improved = compare_runs(counts, better, test=test)
    checks["diff, improved"] = improved.interval
    result.null_comparisons += 1
    result.null_none_changed += not null.changed
    result.improved_listed += len(improved.changed) / config.tasks

    for name, interval in checks.items():
        result.tally(name).add(interval, truths[name])


def run(config: Config, campaigns: int, seed: int) -> Result:
    rng = random.Random(f"{seed}/{config.tasks}/{config.repeats}/{config.rates}")
    result, truths, test = Result(config), config.truths(), ExactTest()
    for _ in range(campaigns):
        campaign(rng, config, result, truths, test)
    return result


def metric_names(results: list[Result]) -> list[str]:
    names: list[str] = []
    for r in results:
        names += [n for n in r.tallies if n not in names]
    return names


def render(results: list[Result], campaigns: Callable[[Config], int]) -> str:
    header = ["metric"] + [f"T={r.config.tasks} n={r.config.repeats} {r.config.rates}" for r in results]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for name in metric_names(results):
        cells = [name]
        for r in results:
            t = r.tallies.get(name)
            zero = f" ({t.zero_width} zero width)" if t is not None and t.zero_width else ""
            cells.append("" if t is None else f"{t.covered / t.total:.3f}{zero}")
        lines.append("| " + " | ".join(cells) + " |")
    cells = ["no changed task, no-change compare"]
    cells += [f"{r.null_none_changed / r.null_comparisons:.3f}" for r in results]
    lines.append("| " + " | ".join(cells) + " |")
    cells = ["share of tasks listed as changed, improved compare"]
    cells += [f"{r.improved_listed / r.null_comparisons:.3f}" for r in results]
    lines.append("| " + " | ".join(cells) + " |")
    cells = ["campaigns"] + [str(campaigns(r.config)) for r in results]
    lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a quarter of the campaigns")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--markdown", action="store_true", help="print only the table")
    args = parser.parse_args()
    scale = 4 if args.quick else 1

    def campaigns(config: Config) -> int:
        return (3000 if config.tasks <= 40 else 800) // scale

    configs = [Config(t, n, rates) for t in TASKS for n in REPEATS for rates in RATES]
    started = time.perf_counter()
    results = []
    for config in configs:
        results.append(run(config, campaigns(config), args.seed))
        if not args.markdown:
            print(f"  {config}: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    table = render(results, campaigns)
    print(table)
    worst = min(t.covered / t.total for r in results for t in r.tallies.values())
    zero = sum(t.zero_width for r in results for t in r.tallies.values())
    if not args.markdown:
        print(
            f"\nlowest coverage {worst:.3f} (target >= {TARGET}); zero-width intervals: {zero}; "
            f"{time.perf_counter() - started:.0f} s"
        )
    return 0 if worst >= TARGET and zero == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
