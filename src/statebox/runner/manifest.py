"""The run manifest, manifest.json (a contract: docs/contracts.md, "The run directory"): what a run was.

Every writer builds a `Manifest` and every reader gets one from `RunDir.manifest()` (runner/store.py),
which refuses, in one line naming the file, a manifest that is not JSON, not a manifest, or of a
`schema_version` newer than this statebox's. A manifest from before schema versions is version 1;
keys added since (`workers`, `rubrics_judged`, sampling's `thinking_budget`) read with their defaults.
The entries a suite adds (`thinkingbox`, `tau_bench`: `AttemptSource.manifest()`) are kept as written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

import statebox
from statebox.llm.types import Sampling
from statebox.runner.record import SCHEMA_VERSION

if TYPE_CHECKING:
    from statebox.runner.taskset import TaskSet

# Entries that may differ when resuming: they do not change results.
RESUMABLE_KEYS = frozenset({"repeat", "concurrency", "workers", "tools_via", "started_at", "resumed_at"})
# The sections written only by the commands that make such runs (import, regrade, play).
_SECTIONS = ("imported", "regraded", "played")


class Imported(BaseModel):
    """A run written by `statebox import`: the file it was read from, pinned."""

    model_config = ConfigDict(
        extra="allow"
    )  # the importer's own entries (tau-bench: domain, split; tb-infer: test_list)

    format: str
    source: str  # the file's absolute path
    sha256: str  # of the file as imported
    records: int
    at: str  # ISO time


class Regraded(BaseModel):
    """A run written by `statebox regrade`: the run it judged again, and what changed."""

    model_config = ConfigDict(populate_by_name=True)

    from_: str = Field(validation_alias="from", serialization_alias="from")  # the source run directory, absolute
    at: str
    tasks_changed: list[str]
    tasks_missing: list[str]
    state_rejudged: bool


class Played(BaseModel):
    """A run written by `statebox play --out`: the side a person played."""

    model_config = ConfigDict(populate_by_name=True)

    as_: Literal["agent", "customer"] = Field(validation_alias="as", serialization_alias="as")


class Manifest(BaseModel):
    """manifest.json. Defaults are what a manifest written before the key existed means."""

    model_config = ConfigDict(extra="allow")  # a suite's own entries (see the module's docstring)

    schema_version: StrictInt = SCHEMA_VERSION
    statebox_version: str | None = None
    suite: str
    task_set_hash: str | None = None  # hash of the selected tasks' content hashes
    tasks: int | None = None  # how many tasks were selected
    agent: str
    models: list[str] = Field(default_factory=list)
    base_url: str | None = None
    sampling: Sampling = Field(default_factory=Sampling)
    user: str | None = None
    user_model: str | None = None
    judge_model: str | None = None
    rubrics_judged: bool = False
    repeat: int
    concurrency: int | None = None
    workers: int | None = None
    shard: list[int] | None = None  # [index, count]
    tools_via: str | None = None
    search_backend: str | None = None
    prices: dict[str, Any] = Field(default_factory=dict)  # model spec -> the price table used, or None
    imported: Imported | None = None
    regraded: Regraded | None = None
    played: Played | None = None

    @classmethod
    def of(cls, suite: TaskSet, **run: Any) -> Manifest:
        """The manifest of a run of `suite` (its selected tasks) by this statebox: the suite named, hashed and
        counted here, what the run was in `run`'s fields, every other field its default."""
        return cls(
            statebox_version=statebox.__version__, suite=suite.name, task_set_hash=suite.content_hash(),
            tasks=len(suite.tasks), **run,
        )  # fmt: skip

    def as_json(self) -> dict[str, Any]:
        """The manifest as written to manifest.json (the sections a run does not have left out)."""
        data = self.model_dump(mode="json", by_alias=True)
        return {k: v for k, v in data.items() if not (k in _SECTIONS and v is None)}

    def entry(self, name: str) -> Any:
        """An entry a suite added (`thinkingbox`, `tau_bench`), or None."""
        return (self.model_extra or {}).get(name)

    def with_entries(self, entries: Mapping[str, Any]) -> Manifest:
        """This manifest with `entries` added, or replacing its own (they win), validated again."""
        return Manifest.model_validate({**self.as_json(), **entries})

    def differences(self, other: Manifest) -> list[str]:
        """The entries (by name, sorted) that differ from `other`'s in anything that changes results."""
        mine, theirs = self.as_json(), other.as_json()
        return sorted(
            k for k in mine.keys() | theirs.keys() if k not in RESUMABLE_KEYS and mine.get(k) != theirs.get(k)
        )
