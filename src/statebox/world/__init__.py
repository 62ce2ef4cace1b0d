"""The backend state engine: pristine snapshots, per-attempt sessions, change capture, effects."""

from statebox.world.effects import Effects, Row, RowChange
from statebox.world.session import Session
from statebox.world.snapshot import Snapshot
from statebox.world.spec import Sequence, TableSpec, WorldSpec
from statebox.world.upsert import WorldError

__all__ = ["Effects", "Row", "RowChange", "Sequence", "Session", "Snapshot", "TableSpec", "WorldError", "WorldSpec"]
