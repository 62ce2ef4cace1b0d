"""Quantiles of the normal and Student t distributions, in the standard library only."""

from __future__ import annotations

from math import pi, sqrt, tan
from statistics import NormalDist


def normal_quantile(p: float) -> float:
    """The p-quantile of the standard normal distribution."""
    return NormalDist().inv_cdf(p)


def t_quantile(p: float, df: float) -> float:
    """The p-quantile of Student's t with `df` degrees of freedom (df >= 1).

    Exact for df 1 and 2; above, the Cornish-Fisher expansion in 1/df to the fourth order: at
    p = 0.975 it is 0.004 low at df = 3, 0.0003 at df = 5, and within 1e-4 from df = 10.
    """
    if not 0 < p < 1:
        raise ValueError(f"p must be between 0 and 1, got {p}")
    if df < 1:
        raise ValueError(f"need at least one degree of freedom, got {df}")
    if df == 1:
        return tan(pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) / sqrt(2 * p * (1 - p))
    z = normal_quantile(p)
    z2 = z * z
    g1 = z * (z2 + 1) / 4
    g2 = z * ((5 * z2 + 16) * z2 + 3) / 96
    g3 = z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / 384
    g4 = z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4
