"""Deterministic train/test splits: a task's split is a stable hash of its id, at a fixed ratio."""

from __future__ import annotations

import hashlib
from typing import Literal

Split = Literal["train", "test"]
SPLITS: tuple[Split, ...] = ("train", "test")
TEST_PERCENT = 20  # of every 100 hash buckets, this many are test tasks


def split_of(task_id: str) -> Split:
    """`test` for about one task in five, the same on every machine and in every version."""
    bucket = int.from_bytes(hashlib.sha256(task_id.encode()).digest()[:8], "big") % 100
    return "test" if bucket < TEST_PERCENT else "train"


def in_split(task_ids: list[str], split: Split | None) -> list[str]:
    """The ids of `split` (all of them for None), sorted."""
    return sorted(t for t in task_ids if split is None or split_of(t) == split)
