"""The suite's shape as records: what one task contributes, a domain's totals, and the minimums they are held to."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, Field

from statebox.tasks.review import ReviewState

SHAPE_VERSION = 1


@dataclass(frozen=True)
class Minimums:
    """What every domain must reach (issue 28); tests/domains/test_shape_minimums.py holds each domain to them."""

    write_sequences: int = 40  # distinct write sequences, tool names only, at least
    helpdesk_share: float = 0.15  # share of tasks whose writes are all helpdesk records, at most
    discoverable_facts: int = 0
    unverified_tasks: int = 0
    unconfirmed_writes: int = 0
    near_duplicate_cluster: int = 2  # tasks with the same writes and the same policy sections, at most


MINIMUMS = Minimums()


class TaskShape(BaseModel):
    """What one task's reference contributes to its domain's shape (part of `validate --json`)."""

    id: str
    domain: str
    writes: list[str] = Field(description="the reference's successful writes in order, tool names, identity steps "
                                          "(texted codes, card and identity checks) left out")
    write_keys: list[str] = Field(description="the same writes with their argument names, as tool(a,b)")
    helpdesk_only: bool = Field(description="it writes, and every write is a ticket, comment, hand-off, email or code")
    read_only: bool
    unverified: bool = Field(description="verification is required, and no write (for a read-only task: no call) "
                                         "is guarded by a verify_before check")
    discoverable: list[str] = Field(default_factory=list, description="private facts a tool shows before the "
                                                                       "customer states them, as 'key (tool)'")
    unconfirmed: list[str] = Field(default_factory=list, description="writes under confirm_before that none of the "
                                   "customer's confirmations names (a customer with none agrees to all)")
    policy_sections: list[int] = Field(default_factory=list)
    problems: list[str] = Field(default_factory=list, description="this task's shape problems, one line each")


class DomainShape(BaseModel):
    """One domain's totals (printed by `statebox validate` after the task table)."""

    domain: str
    tasks: int
    read_only: int
    write_sequences: int
    write_sequences_with_keys: int
    helpdesk_only: int
    helpdesk_share: float
    unverified_tasks: int
    discoverable_facts: int
    unconfirmed_writes: int
    near_duplicates: list[list[str]] = Field(description="clusters of 2+ tasks with the same writes and sections")
    largest_cluster: int
    reviews: dict[ReviewState, int] = Field(description="tasks by review state: current, stale, open, missing")
    below_minimum: list[str] = Field(description="each measure that misses its minimum, as 'measure: got vs bar'")
    task_problems: dict[str, list[str]] = Field(description="per task, its shape and review problem lines")


class SuiteShape(BaseModel):
    """The shape of every domain of a suite (`validate --json`'s `shape`)."""

    version: int = SHAPE_VERSION
    minimums: dict[str, float] = Field(default_factory=lambda: dict(MINIMUMS.__dict__))
    domains: list[DomainShape]
