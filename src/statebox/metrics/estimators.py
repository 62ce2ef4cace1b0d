"""Per-task estimators of pass@k, pass^k and the plug-in pass^k, from n attempts with c passes.

Convention for k > n: a task with fewer than k attempts cannot estimate anything at k, so every
estimator returns None and aggregates skip that task (see `aggregates.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb

Estimator = Callable[[int, int, int], float | None]


def _check(n: int, c: int, k: int) -> None:
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    if not 0 <= c <= n:
        raise ValueError(f"need 0 <= c <= n, got n={n}, c={c}")


def pass_at_k(n: int, c: int, k: int) -> float | None:
    """Unbiased P(at least one of k attempts passes) = 1 - C(n-c, k) / C(n, k); None if k > n."""
    _check(n, c, k)
    if k > n:
        return None
    total = comb(n, k)
    # Subtract in integers and divide once, so the result is the correctly rounded exact value
    # (math.comb is 0 when n - c < k, giving exactly 1.0).
    return (total - comb(n - c, k)) / total


def pass_hat_k(n: int, c: int, k: int) -> float | None:
    """Unbiased P(all of k attempts pass) = C(c, k) / C(n, k); None if k > n."""
    _check(n, c, k)
    if k > n:
        return None
    return comb(c, k) / comb(n, k)


def pass_hat_k_plugin(n: int, c: int, k: int) -> float | None:
    """Plug-in (c/n)^k, biased upward; kept only for comparison. None if k > n."""
    _check(n, c, k)
    if k > n:
        return None
    return c**k / n**k
