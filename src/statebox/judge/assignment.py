"""Minimum-cost assignment (Hungarian method) for matching inserted rows by content."""

from __future__ import annotations

import math


def min_cost_assignment(cost: list[list[float]]) -> list[tuple[int, int]]:
    """Pairs (row, col) minimising the total cost; a rectangular matrix leaves extras unpaired."""
    if not cost or not cost[0]:
        return []
    transposed = len(cost) > len(cost[0])
    m = [list(r) for r in zip(*cost, strict=True)] if transposed else cost
    n_rows, n_cols = len(m), len(m[0])
    u, v = [0.0] * (n_rows + 1), [0.0] * (n_cols + 1)
    match, way = [0] * (n_cols + 1), [0] * (n_cols + 1)
    for i in range(1, n_rows + 1):
        match[0], j0 = i, 0
        minv, used = [math.inf] * (n_cols + 1), [False] * (n_cols + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = match[j0], math.inf, 0
            for j in range(1, n_cols + 1):
                if not used[j]:
                    cur = m[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j], way[j] = cur, j0
                    if minv[j] < delta:
                        delta, j1 = minv[j], j
            for j in range(n_cols + 1):
                if used[j]:
                    u[match[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if match[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            match[j0] = match[j1]
            j0 = j1
    pairs = [(match[j] - 1, j - 1) for j in range(1, n_cols + 1) if match[j]]
    return sorted((c, r) if transposed else (r, c) for r, c in pairs)
