"""The counts both benchmarks' `validate` reports give, from their task records.

Light (nothing but the standard library): a provider, read by every `statebox` command, names it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol


class Audited(Protocol):
    """What the shared counts read of a task's record."""

    reference_passes: bool
    read_only: bool | None
    writes: int | None
    unnecessary_writes: list[str]
    judge_disagreements: list[str]

    @property
    def ok(self) -> bool: ...


def audit_counts(results: Sequence[Audited], writes: str) -> dict[str, int]:
    """The counts both reports have; `writes` is the report's word for the state-changing reference calls
    (also in the key of the unnecessary ones: `unnecessary_{writes}`)."""
    return {
        "tasks": len(results),
        "ok": sum(r.ok for r in results),
        "reference_passes": sum(r.reference_passes for r in results),
        "read_only": sum(r.read_only is True for r in results),
        writes: sum(r.writes or 0 for r in results),
        f"unnecessary_{writes}": sum(len(r.unnecessary_writes) for r in results),
        "tasks_with_unnecessary_writes": sum(bool(r.unnecessary_writes) for r in results),
        "judge_attempts": 2 * len(results),  # a reference and a no-op attempt per task
        "judge_disagreements": sum(len(r.judge_disagreements) for r in results),
    }


def in_order(keys: Sequence[str], *parts: Mapping[str, int]) -> dict[str, int]:
    """The counts of `parts` together, in the order of `keys`, which name every one of them exactly once."""
    merged = {key: count for part in parts for key, count in part.items()}
    if sorted(merged) != sorted(keys):
        raise ValueError(f"the counts {sorted(merged)} are not the keys {sorted(keys)}")
    return {key: merged[key] for key in keys}
