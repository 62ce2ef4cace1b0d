"""Components: pieces of a backend (tables, id sequences, tools) that domains compose instead of rewriting."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field

from statebox.tools import Tool
from statebox.world import Sequence, TableSpec

Seeder = Callable[[sqlite3.Connection], None]


@dataclass(frozen=True)
class Component:
    """A reusable part of a domain: its DDL, judging specs, sequences, agent tools and customer tools."""

    name: str
    ddl: str
    tables: dict[str, TableSpec] = field(default_factory=dict)
    sequences: dict[str, Sequence] = field(default_factory=dict)
    tools: list[Tool] = field(default_factory=list)
    customer_tools: list[Tool] = field(default_factory=list)  # only the simulated customer calls these
    seed: Seeder | None = None
