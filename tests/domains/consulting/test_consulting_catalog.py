"""The firm's reference data, read from catalog.json: each table's rows list its columns in order."""

from __future__ import annotations

import pytest

from statebox.domains.consulting import catalog
from statebox.domains.consulting.catalog import _rows


def test_each_table_is_read_as_rows_of_its_columns() -> None:
    assert catalog.OFFICES[0] == ("OFC-01", "New York", "US", "300 Park Avenue South", "10010")
    assert catalog.CITIES["B"][0] == ("Chicago", "US")
    assert {len(r) for r in catalog.SOFTWARE} == {5} and {len(r) for r in catalog.DEVICE_MODELS} == {4}


def test_a_row_missing_a_column_is_refused_naming_the_table() -> None:
    with pytest.raises(ValueError, match="device_models rows \\[\\['Dell XPS 15', 'laptop'\\]\\]"):
        _rows("device_models", ["name", "kind", "cost", "standard"], [["Dell XPS 15", "laptop"]])
