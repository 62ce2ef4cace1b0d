"""Importer plug-ins: one per recorded-run format, registered under the `statebox.importers` entry-point group
and loaded only when `statebox import` names it; the command names no format."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from statebox.importing.errors import ImportFormatError
from statebox.importing.recorded import ImportPlan

ENTRY_POINT_GROUP = "statebox.importers"


class Importer(ABC):
    """Reads one format of recorded attempts into an `ImportPlan` (bad input: `ImportFormatError`)."""

    format: str
    description: str = ""

    @abstractmethod
    def read(self, path: Path, options: Mapping[str, Any]) -> ImportPlan:
        """The suite and the attempts of `path`; `options` are the suite providers' options by name."""


def importer_formats() -> list[str]:
    """Every registered format name (nothing is loaded)."""
    return sorted(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))


def load_importer(fmt: str) -> Importer:
    """The importer of `fmt`; an unknown format lists the known ones."""
    found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == fmt]
    if not found:
        known = ", ".join(importer_formats()) or "none"
        raise ImportFormatError(f"unknown import format {fmt!r}; known: {known}")
    importer = found[0].load()
    return importer() if isinstance(importer, type) else importer
