"""The seed's failure analysis: among failed attempts, how many ended cleanly and which kinds they show.

Pure counting over per-attempt facts (docs/metrics.md, "Failure analysis"). Shares are over the
failed attempts given; with none, every share is None (never 0/0).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# How a conversation ends when the agent or the customer chose to end it (every other finish
# reason is a limit: turns, steps, tool errors, time, context).
CLEAN_FINISH_REASONS = frozenset({"agent_ended", "customer_ended"})
KINDS = ("wrong_value", "extra_effect", "missing_effect")


def terminated_cleanly(finish_reason: str | None, last_tool_result_error: bool | None, successful_writes: int) -> bool:
    """Ended by the agent or the customer, >= 1 state-changing call succeeded, the final tool result no error.

    `last_tool_result_error` is None when the attempt got no tool result at all (then it wrote nothing).
    """
    return finish_reason in CLEAN_FINISH_REASONS and successful_writes >= 1 and last_tool_result_error is False


@dataclass(frozen=True)
class FailedAttempt:
    """What the analysis needs of one failed attempt: its signature, discrepancy kinds and clean ending."""

    signature: str | None
    kinds: frozenset[str]
    clean: bool
    writes_recorded: bool = True  # False: the record predates the write count, `clean` used its effects


@dataclass(frozen=True)
class FailureCounts:
    """Counts over failed attempts; `with_kind` holds every kind of KINDS (overlapping)."""

    failed: int
    clean: int
    with_kind: dict[str, int]
    signatures: dict[str, int]
    writes_unrecorded: int = 0

    def share(self, count: int) -> float | None:
        return count / self.failed if self.failed else None

    def signature_shares(self) -> dict[str, float]:
        return {name: count / self.failed for name, count in self.signatures.items() if self.failed}


def failure_counts(attempts: Sequence[FailedAttempt]) -> FailureCounts:
    """Tally the failed attempts: clean endings, attempts with >= 1 of each kind, signatures (sorted by name)."""
    return FailureCounts(
        failed=len(attempts),
        clean=sum(a.clean for a in attempts),
        with_kind={kind: sum(kind in a.kinds for a in attempts) for kind in KINDS},
        signatures=_tally(a.signature for a in attempts),
        writes_unrecorded=sum(not a.writes_recorded for a in attempts),
    )


def _tally(values: Iterable[str | None]) -> dict[str, int]:
    counter = Counter(v for v in values if v is not None)
    return {name: counter[name] for name in sorted(counter)}
