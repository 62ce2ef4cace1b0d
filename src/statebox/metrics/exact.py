"""Exact tests that two pass rates are equal, and Benjamini-Hochberg false-discovery control.

Fisher's test conditions on the total number of passes: under "no change", the passes of run a
among all passes are hypergeometric; its two-sided p-value sums the probabilities of every table
no more likely than the observed one. Boschloo's test (`ExactTest`) uses that p-value as its
statistic but does not condition: its p-value is the largest probability, over every common pass
rate, of a table at least as extreme. Both are exact (never anti-conservative) at any n, which
small repeat counts need; Boschloo's is uniformly more powerful (0/5 against 5/5: Fisher 0.0079,
Boschloo 0.0020). Benjamini-Hochberg then keeps the expected share of false discoveries among
the listed tasks at or below q, and with no real change anywhere, the chance of listing any task
at all at or below q.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

GRID = 200  # points on [0, 1] where the nuisance pass rate is searched before refining
REFINE_STEPS = 40

RELATIVE_TIE = 1 + 1e-9  # tables this close in probability to the observed one count as "as likely"


def fisher_exact(passed_a: int, attempts_a: int, passed_b: int, attempts_b: int) -> float:
    """Two-sided p-value of Fisher's exact test that runs a and b share one pass rate."""
    if not (0 <= passed_a <= attempts_a and 0 <= passed_b <= attempts_b):
        raise ValueError(f"need 0 <= passed <= attempts, got {passed_a}/{attempts_a} and {passed_b}/{attempts_b}")
    passes, total = passed_a + passed_b, attempts_a + attempts_b
    lowest, highest = max(0, passes - attempts_b), min(passes, attempts_a)
    weights = {x: comb(attempts_a, x) * comb(attempts_b, passes - x) for x in range(lowest, highest + 1)}
    observed = weights[passed_a]
    extreme = sum(w for w in weights.values() if w <= observed * RELATIVE_TIE)
    return min(1.0, extreme / comb(total, passes))


def benjamini_hochberg(p_values: Sequence[float], q: float) -> list[bool]:
    """Which hypotheses the Benjamini-Hochberg step-up procedure rejects at level q, in input order."""
    if not 0 < q < 1:
        raise ValueError(f"q must be between 0 and 1, got {q}")
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    cutoff = 0
    for rank, i in enumerate(order, start=1):
        if p_values[i] <= q * rank / m:
            cutoff = rank
    rejected = [False] * m
    for i in order[:cutoff]:
        rejected[i] = True
    return rejected


def _probability(weights: Sequence[float], total: int, rate: float) -> float:
    """P(a table in the region) at a common pass rate: sum over s of weights[s] rate^s (1-rate)^(total-s)."""
    return sum(w * rate**s * (1 - rate) ** (total - s) for s, w in enumerate(weights) if w)


def _supremum(weights: Sequence[float], total: int) -> float:
    """The largest `_probability` over rates in [0, 1]: a grid search, then golden-section refinement."""
    values = [_probability(weights, total, g / GRID) for g in range(GRID + 1)]
    best = max(range(GRID + 1), key=values.__getitem__)
    lo, hi = max(0, best - 1) / GRID, min(GRID, best + 1) / GRID
    ratio = (5**0.5 - 1) / 2
    for _ in range(REFINE_STEPS):
        left, right = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if _probability(weights, total, left) >= _probability(weights, total, right):
            hi = right
        else:
            lo = left
    return max(values[best], _probability(weights, total, (lo + hi) / 2))


class ExactTest:
    """Boschloo's exact unconditional test of p_a = p_b, remembering what it computed.

    The memory is per instance: create one per comparison, or share one across many (a simulation).
    """

    def __init__(self) -> None:
        self._fisher: dict[tuple[int, int], dict[tuple[int, int], float]] = {}
        self._p: dict[tuple[int, int, int, int], float] = {}

    def _fisher_table(self, attempts_a: int, attempts_b: int) -> dict[tuple[int, int], float]:
        key = (attempts_a, attempts_b)
        if key not in self._fisher:
            self._fisher[key] = {
                (x, y): fisher_exact(x, attempts_a, y, attempts_b)
                for x in range(attempts_a + 1)
                for y in range(attempts_b + 1)
            }
        return self._fisher[key]

    def p_value(self, passed_a: int, attempts_a: int, passed_b: int, attempts_b: int) -> float:
        """Two-sided Boschloo p-value for passed_a / attempts_a against passed_b / attempts_b."""
        key = (passed_a, attempts_a, passed_b, attempts_b)
        if key not in self._p:
            table = self._fisher_table(attempts_a, attempts_b)
            observed = table[(passed_a, passed_b)]
            total = attempts_a + attempts_b
            weights = [0.0] * (total + 1)
            for (x, y), p in table.items():
                if p <= observed * RELATIVE_TIE:
                    weights[x + y] += comb(attempts_a, x) * comb(attempts_b, y)
            self._p[key] = min(1.0, _supremum(weights, total))
        return self._p[key]
