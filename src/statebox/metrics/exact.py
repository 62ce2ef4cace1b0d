"""Fisher's exact test for two pass rates, and Benjamini-Hochberg false-discovery control.

Fisher's test conditions on the total number of passes: under "no change", the passes of run a
among all passes are hypergeometric. Its two-sided p-value sums the probabilities of every table
no more likely than the observed one. It is exact (never anti-conservative) at any n, which is
what small repeat counts need; Benjamini-Hochberg then keeps the expected share of false
discoveries among the listed tasks at or below q, and with no real change anywhere, the chance
of listing any task at all at or below q.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

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
