"""Coverage of the report's 95% intervals: simulated campaigns against the superpopulation values.

    nice python benchmarks/bench_interval_coverage.py             # 14 settings x 2,000 campaigns, 14-18 min here
    python benchmarks/bench_interval_coverage.py --quick          # 200 campaigns per setting (CI), ~20 s of CPU
    python benchmarks/bench_interval_coverage.py --markdown       # the table as it appears in docs/benchmarks.md
    python benchmarks/bench_interval_coverage.py --only errors    # settings whose label contains the word

The population is of *tasks*: one simulated campaign draws T task success rates p_t from a
distribution (Beta(0.5, 0.5): most tasks nearly always or nearly never pass; Beta(5, 2): most pass
often; "all pass": p = 1, the edge where the data carry no spread), n attempts per task (each
passes with probability p_t), and a cost per attempt: a task-level price u_t (log-normal with
sigma = 1, mean 1: heavy-tailed, a few tasks cost many times the median) times a per-attempt
factor (log-normal, sigma 0.5, mean 1) times 1.5 for a failed attempt (failures run longer). Each
interval is checked against the value of the whole population of tasks, in closed form for Beta
rates (pass^k = E[p^k], cost per success = E[spend] / E[passes]); not against re-running the same
tasks. A ratio whose denominator was 0 has only a lower bound, which covers when it is at most the
true value. "zero width" counts intervals of width 0 (there must be none).

Settings:
- plain: the metrics of `report` and `compare` (run b reruns the same tasks unchanged, "no
  change", or with every rate improved to p + 0.3 (1 - p), "improved"); `compare`'s rows: the share
  of no-change comparisons listing no changed task, the mean share of tasks listed when all
  improved, the no-change flip rate inside its 95% range, and the mean gap between the flip
  expectation and the observed flip rate under no change (0 within Monte-Carlo error when unbiased);
- errors: informative infrastructure errors, 10% of failing and 2% of passing attempts (an errored
  attempt spends half of what it would have). Each convention alone is biased by construction
  (errors-excluded up, errors-as-failures down); the headline shows the band, the hull of both
  conventions' intervals, and that is what is checked, against the agent's own E[p] and E[p^k]
  (each convention's own pass^k interval is shown too, marked "not claimed", and left out of the
  lowest coverage);
- merged: the campaign written as two shard directories (repeats split between them, a tenth of
  the first shard's records copied into the second as identical duplicates, as a resumed copy
  leaves them), read back by `load_runs` and summarised by `report_document`: the report's own
  JSON numbers.
Seeded: the same arguments print the same table.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from coverage_merge import merged_campaign

from statebox.metrics import (
    ExactTest,
    Interval,
    TaskCounts,
    compare_runs,
    cost_per_dependable_task,
    cost_per_successful_attempt,
    curve_tasks,
    estimator_interval,
    pass_at_1_interval,
    pass_at_k,
    pass_hat_k,
    retention_interval,
    share_interval,
)
from statebox.report.rates import error_band

RATES: dict[str, tuple[float, float] | None] = {"Beta(0.5,0.5)": (0.5, 0.5), "Beta(5,2)": (5.0, 2.0), "all pass": None}
IMPROVEMENT = 0.3
FAIL_COST = 1.5
PRICE_SIGMA = 1.0
ATTEMPT_SIGMA = 0.5
ERRORS = (0.10, 0.02)  # P(error | the attempt would fail), P(error | it would pass)
ERROR_SPEND = 0.5
TARGET = 0.93


@dataclass(frozen=True)
class Config:
    kind: str  # plain, errors, merged
    tasks: int
    repeats: int
    rates: str

    @property
    def label(self) -> str:
        extra = {"plain": "", "errors": " informative errors", "merged": " merged shards"}[self.kind]
        return f"T={self.tasks} n={self.repeats} {self.rates}{extra}"

    def moment(self, k: int) -> float:
        """E[p^k]."""
        ab = RATES[self.rates]
        return 1.0 if ab is None else math.prod((ab[0] + j) / (ab[0] + ab[1] + j) for j in range(k))

    def fail_moment(self, k: int) -> float:
        """E[(1 - p)^k]."""
        ab = RATES[self.rates]
        return 0.0 if ab is None else math.prod((ab[1] + j) / (ab[0] + ab[1] + j) for j in range(k))

    def ks(self) -> list[int]:
        return sorted({5, self.repeats})

    def truths(self) -> dict[str, float]:
        mean, n = self.moment(1), self.repeats
        e_fail, e_pass = ERRORS if self.kind == "errors" else (0.0, 0.0)
        fail_spend = FAIL_COST * (1 - e_fail + e_fail * ERROR_SPEND)
        pass_spend = 1 - e_pass + e_pass * ERROR_SPEND
        spend = n * (fail_spend + (pass_spend - fail_spend) * mean)  # E[u] = 1, independent of p
        dependable = self.moment(n) * (1 - e_pass) ** n
        values = {"pass@1": mean, "pass@1 band": mean, "pass@1 of A (compare)": mean}
        values["pass@1 of B, improved (compare)"] = mean + IMPROVEMENT * (1 - mean)
        for k in self.ks():
            values[f"pass@{k}"] = 1 - self.fail_moment(k)
            values[f"pass^{k}"] = values[f"pass^{k} band"] = self.moment(k)
        values[f"observed {n}/{n} share"] = dependable
        values[f"retention (pass^{n} / pass@1)"] = self.moment(n) / mean
        values["cost per success"] = spend / (n * mean * (1 - e_pass))
        values["cost per dependable task"] = spend / dependable
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

    def add_hit(self, hit: bool) -> None:
        self.total += 1
        self.covered += hit


@dataclass
class Result:
    config: Config
    campaigns: int
    tallies: dict[str, Tally] = field(default_factory=dict)
    reference: dict[str, Tally] = field(default_factory=dict)  # shown, not claimed (one convention alone)
    null_none_changed: int = 0
    improved_listed: float = 0.0  # summed over campaigns: share of the (all truly improved) tasks listed
    flip_gap: float = 0.0  # summed: expected - observed flip rate under no change
    flip_gap_squares: float = 0.0

    def tally(self, name: str) -> Tally:
        return self.tallies.setdefault(name, Tally())


@dataclass(frozen=True)
class Attempts:
    """One run: per task, passes among finished attempts, finished attempts, and spend."""

    passes: list[int]
    finished: list[int]
    spend: list[float]


def draw_run(
    rng: random.Random, rates: list[float], prices: list[float], n: int, errors: tuple[float, float]
) -> Attempts:
    passes, finished, spend = [], [], []
    for p, u in zip(rates, prices, strict=True):
        c = f = 0
        y = 0.0
        for _ in range(n):
            ok = rng.random() < p
            cost = u * rng.lognormvariate(-(ATTEMPT_SIGMA**2) / 2, ATTEMPT_SIGMA) * (1 if ok else FAIL_COST)
            if rng.random() < (errors[1] if ok else errors[0]):
                y += ERROR_SPEND * cost
                continue
            c, f, y = c + ok, f + 1, y + cost
        passes.append(c)
        finished.append(f)
        spend.append(y)
    return Attempts(passes, finished, spend)


def _interval(bounds: list[float | None] | None) -> Interval | None:
    return None if bounds is None or bounds[0] is None else Interval(bounds[0], bounds[1])


def cost_checks(counts: list[TaskCounts], spend: list[float], n: int) -> dict[str, Interval | None]:
    by_task = {t.task_id: y for t, y in zip(counts, spend, strict=True)}
    per_success = cost_per_successful_attempt(counts, by_task, repeats=n)
    per_dependable = cost_per_dependable_task(counts, by_task, n)
    return {
        "cost per success": None if per_success is None else per_success.interval,
        "cost per dependable task": None if per_dependable is None else per_dependable.interval,
    }


def report_checks(config: Config, counts: list[TaskCounts], spend: list[float]) -> dict[str, Interval | None]:
    n = config.repeats
    checks: dict[str, Interval | None] = {}
    p1 = pass_at_1_interval(counts)
    checks["pass@1"] = None if p1 is None else Interval(p1.lo, p1.hi)
    curve = curve_tasks(counts, n)
    for k in config.ks():
        checks[f"pass@{k}"] = estimator_interval(curve, pass_at_k, k)
        checks[f"pass^{k}"] = estimator_interval(curve, pass_hat_k, k)
    checks[f"observed {n}/{n} share"] = share_interval([t.c == n for t in counts])
    checks[f"retention (pass^{n} / pass@1)"] = retention_interval(counts, n)
    return checks | cost_checks(counts, spend, n)


def compare_checks(
    rng: random.Random, rates: list[float], a: list[TaskCounts], result: Result, test: ExactTest
) -> dict[str, Interval | None]:
    n = result.config.repeats
    same = [TaskCounts(t.task_id, n, c) for t, c in zip(a, draw_run(rng, rates, rates, n, (0, 0)).passes, strict=True)]
    better_rates = [p + IMPROVEMENT * (1 - p) for p in rates]
    drawn = draw_run(rng, better_rates, rates, n, (0, 0)).passes
    better = [TaskCounts(t.task_id, n, c) for t, c in zip(a, drawn, strict=True)]
    null, improved = compare_runs(a, same, test=test), compare_runs(a, better, test=test)
    result.null_none_changed += not null.changed
    result.improved_listed += len(improved.changed) / len(a)
    gap = (null.expected_flip_rate or 0.0) - (null.flip_rate or 0.0)
    result.flip_gap += gap
    result.flip_gap_squares += gap * gap
    flip_range = null.no_change_flip_range
    inside = flip_range is not None and null.flip_rate is not None and flip_range.contains(null.flip_rate)
    result.tally("no-change flip rate inside its 95% range (compare)").add_hit(inside)
    return {
        "diff, no change": null.interval,
        "diff, improved": improved.interval,
        "pass@1 of A (compare)": null.interval_a,
        "pass@1 of B, improved (compare)": improved.interval_b,
    }


def error_checks(run: Attempts, result: Result, truths: dict[str, float]) -> dict[str, Interval | None]:
    """The band under informative errors; each convention alone goes to the reference rows."""
    n = result.config.repeats
    excluded = [TaskCounts(f"t{i}", f, c) for i, (c, f) in enumerate(zip(run.passes, run.finished, strict=True))]
    as_failures = [TaskCounts(f"t{i}", n, c) for i, c in enumerate(run.passes)]
    band = error_band(excluded, as_failures, n)
    checks = {"pass@1 band": _interval(band.pass_at_1)}
    checks |= {f"pass^{k} band": _interval(band.pass_hat_k.get(str(k))) for k in result.config.ks()}
    for side in (band.errors_excluded, band.errors_as_failures):
        for k in result.config.ks():
            tally = result.reference.setdefault(f"pass^{k}, {side.convention} alone (not claimed)", Tally())
            tally.add(_interval(side.pass_hat_k_ci.get(str(k))), truths[f"pass^{k}"])
    return checks | cost_checks(excluded, run.spend, n)


def campaign(rng: random.Random, result: Result, truths: dict[str, float], test: ExactTest, workdir: Path) -> None:
    config = result.config
    ab, n = RATES[config.rates], config.repeats
    rates = [1.0 if ab is None else rng.betavariate(*ab) for _ in range(config.tasks)]
    prices = [rng.lognormvariate(-(PRICE_SIGMA**2) / 2, PRICE_SIGMA) for _ in range(config.tasks)]
    if config.kind == "merged":
        checks = merged_campaign(rng, rates, prices, config, workdir)
    elif config.kind == "errors":
        checks = error_checks(draw_run(rng, rates, prices, n, ERRORS), result, truths)
    else:
        run = draw_run(rng, rates, prices, n, (0, 0))
        counts = [TaskCounts(f"t{i}", n, c) for i, c in enumerate(run.passes)]
        checks = report_checks(config, counts, run.spend) | compare_checks(rng, rates, counts, result, test)
    for name, interval in checks.items():
        result.tally(name).add(interval, truths[name])


def run(config: Config, campaigns: int, seed: int) -> Result:
    rng = random.Random(f"{seed}/{config.label}")
    result, truths, test = Result(config, campaigns), config.truths(), ExactTest()
    with tempfile.TemporaryDirectory(prefix="coverage-") as workdir:
        for _ in range(campaigns):
            campaign(rng, result, truths, test, Path(workdir))
    return result


def settings() -> list[Config]:
    plain = [Config("plain", t, n, r) for t in (40, 200) for n in (5, 20) for r in ("Beta(0.5,0.5)", "Beta(5,2)")]
    plain.append(Config("plain", 40, 5, "all pass"))
    errors = [Config("errors", 200, 5, r) for r in ("Beta(0.5,0.5)", "Beta(5,2)")]
    errors += [Config("errors", 200, 20, "Beta(5,2)"), Config("errors", 40, 5, "Beta(5,2)")]
    return [*plain, *errors, Config("merged", 40, 5, "Beta(5,2)")]


def metric_names(results: list[Result], reference: bool = False) -> list[str]:
    names: list[str] = []
    for r in results:
        names += [n for n in (r.reference if reference else r.tallies) if n not in names]
    return names


def _row(name: str, cells: list[str]) -> str:
    return "| " + " | ".join([name, *cells]) + " |"


def _cell(t: Tally | None) -> str:
    if t is None:
        return ""
    zero = f" ({t.zero_width} zero width)" if t.zero_width else ""
    return f"{t.covered / t.total:.3f}{zero}"


def render(results: list[Result]) -> str:
    """One column per setting; a metric a setting does not check is blank."""
    lines = [_row("metric", [r.config.label for r in results]), "|" + "---|" * (len(results) + 1)]
    for name in metric_names(results):
        lines.append(_row(name, [_cell(r.tallies.get(name)) for r in results]))
    for name in metric_names(results, reference=True):
        lines.append(_row(name, [_cell(r.reference.get(name)) for r in results]))
    plain = [r.config.kind == "plain" for r in results]
    rows: list[tuple[str, Callable[[Result], str]]] = [
        ("no changed task, no-change compare", lambda r: f"{r.null_none_changed / r.campaigns:.3f}"),
        ("share of tasks listed as changed, improved compare", lambda r: f"{r.improved_listed / r.campaigns:.3f}"),
        ("flip expectation - observed, no change (mean ± 2 se)", _flip_gap),
    ]
    for name, cell in rows:
        lines.append(_row(name, [cell(r) if p else "" for r, p in zip(results, plain, strict=True)]))
    lines.append(_row("campaigns", [str(r.campaigns) for r in results]))
    return "\n".join(lines)


def _flip_gap(r: Result) -> str:
    mean = r.flip_gap / r.campaigns
    spread = max(0.0, r.flip_gap_squares / r.campaigns - mean * mean)
    return f"{mean:+.4f} ± {2 * math.sqrt(spread / r.campaigns):.4f}"


def pass_bar(campaigns: int) -> float:
    """The target, less two Monte-Carlo standard errors below the 2,000 campaigns of the claim (--quick)."""
    if campaigns >= 2000:
        return TARGET
    return TARGET - 2 * math.sqrt(0.95 * 0.05 / campaigns)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="200 campaigns per setting instead of 2,000")
    parser.add_argument("--campaigns", type=int, default=None, help="campaigns per setting")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", default=None, help="only the settings whose label contains this")
    parser.add_argument("--markdown", action="store_true", help="print only the table")
    args = parser.parse_args()
    campaigns = args.campaigns or (200 if args.quick else 2000)
    configs = [c for c in settings() if args.only is None or args.only in c.label]
    started = time.perf_counter()
    results = []
    for config in configs:
        results.append(run(config, campaigns, args.seed))
        worst_here = min(t.covered / t.total for t in results[-1].tallies.values())
        print(f"  {config.label}: lowest {worst_here:.3f}, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    print(render(results))
    worst = min(t.covered / t.total for r in results for t in r.tallies.values())
    zero = sum(t.zero_width for r in results for t in r.tallies.values())
    bar = pass_bar(campaigns)
    if not args.markdown:
        print(
            f"\nlowest coverage {worst:.3f} (target >= {TARGET}, pass bar {bar:.3f} at {campaigns} campaigns); "
            f"zero-width intervals: {zero}; "
            f"{time.perf_counter() - started:.0f} s"
        )
    return 0 if worst >= bar and zero == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
