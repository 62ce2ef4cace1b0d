"""Effects: what an attempt changed, row by row and field by field."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import BaseModel, Field

Row = dict[str, Any]
ChangeKind = Literal["insert", "update", "delete"]


class RowChange(BaseModel):
    """One row's net change between the attempt's start and its end."""

    table: str
    key: Any
    kind: ChangeKind
    before: Row | None = None  # None for inserts
    after: Row | None = None  # None for deletes

    @property
    def changed_fields(self) -> list[str]:
        """Fields whose value differs (all fields for inserts and deletes)."""
        if self.before is None:
            return sorted((self.after or {}).keys())
        if self.after is None:
            return sorted(self.before.keys())
        return sorted(f for f in self.after if self.after.get(f) != self.before.get(f))


class Effects(BaseModel):
    """All net row changes of an attempt, sorted by table and key."""

    changes: list[RowChange] = Field(default_factory=list)

    def of_kind(self, kind: ChangeKind) -> list[RowChange]:
        return [c for c in self.changes if c.kind == kind]

    def tables(self) -> set[str]:
        return {c.table for c in self.changes}

    def is_empty(self) -> bool:
        return not self.changes

    def to_json(self) -> dict[str, Any]:
        """The public shape: inserted / updated (field before-after) / deleted, per table."""
        out: dict[str, dict[str, list[Any]]] = {"inserted": {}, "updated": {}, "deleted": {}}
        for c in self.changes:
            if c.kind == "insert":
                out["inserted"].setdefault(c.table, []).append(c.after)
            elif c.kind == "delete":
                out["deleted"].setdefault(c.table, []).append(c.before)
            else:
                assert c.before is not None and c.after is not None
                fields = {f: {"before": c.before.get(f), "after": c.after.get(f)} for f in c.changed_fields}
                out["updated"].setdefault(c.table, []).append({"key": c.key, "fields": fields})
        return out

    def state_hash(self, ignored: dict[str, frozenset[str]] | None = None) -> str:
        """A canonical hash of the judged end state relative to the attempt's initial state."""
        ignored = ignored or {}
        canon = []
        for c in self.changes:
            skip = ignored.get(c.table, frozenset())
            after = None if c.after is None else {k: v for k, v in c.after.items() if k not in skip}
            canon.append([c.table, str(c.key), c.kind, after])
        blob = json.dumps(canon, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(blob.encode()).hexdigest()
