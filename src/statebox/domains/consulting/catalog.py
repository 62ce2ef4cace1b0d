"""Reference data of the firm: offices, practices, cities, the software, device and course catalogues.

The rows are in catalog.json beside this file: each table names its columns, and every row lists them in order.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

Rows = tuple[tuple[Any, ...], ...]


def _rows(name: str, columns: list[str], rows: list[list[Any]]) -> Rows:
    """The rows as tuples; a row without exactly one value per column is a broken catalogue, not a short row."""
    broken = [r for r in rows if len(r) != len(columns)]
    if broken:
        raise ValueError(f"catalog.json: {name} rows {broken} do not list the columns {columns}")
    return tuple(tuple(r) for r in rows)


def _load() -> dict[str, Any]:
    tables = json.loads(Path(__file__).with_name("catalog.json").read_text(encoding="utf-8"))
    cities = tables.pop("cities")
    loaded: dict[str, Any] = {name: _rows(name, t["columns"], t["rows"]) for name, t in tables.items()}
    loaded["cities"] = {band: _rows(f"cities {band}", cities["columns"], rows)
                        for band, rows in cities["bands"].items()}
    return loaded


_CATALOG = _load()

OFFICES: Rows = _CATALOG["offices"]  # id, city, country, line1, postal code
PRACTICES: Rows = _CATALOG["practices"]  # id, name
CITIES: dict[str, Rows] = _CATALOG["cities"]  # band -> cities (name, country); a city not listed is band C

# name, vendor, category, annual cost of the standard edition, restricted (a Premium edition follows each paid one)
SOFTWARE: Rows = _CATALOG["software"]

EDITION_FACTOR = 1.6  # the Premium edition of each paid title costs this much more (rounded to the dollar)

DEVICE_MODELS: Rows = _CATALOG["device_models"]  # name, kind, cost, standard
COURSE_TOPICS: Rows = _CATALOG["course_topics"]  # topic, provider, cost
