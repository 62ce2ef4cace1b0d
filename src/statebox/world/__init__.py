"""The backend state engine: pristine snapshots, per-attempt sessions, change capture, effects."""

from statebox.world.effects import Effects, Row, RowChange
from statebox.world.session import Session, WorldError
from statebox.world.snapshot import Snapshot
from statebox.world.spec import Sequence, TableSpec, WorldSpec

__all__ = ["Effects", "Row", "RowChange", "Sequence", "Session", "Snapshot", "TableSpec", "WorldError", "WorldSpec"]
