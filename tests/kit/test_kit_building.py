"""build_domain reads a domain from its folder; seeds build rows in memory and insert them with one inserter."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from kitdemo import DOMAIN, HERE as KITDEMO, NOW, seed
from statebox.kit import OwnWorld, SeedRows, build_domain, id_sequences, insert_rows, lookup, table_specs
from statebox.tools import NotFound
from statebox.world import Sequence, Session, TableSpec


def test_a_domain_is_named_after_its_folder_and_reads_its_schema_policy_and_tasks() -> None:
    assert DOMAIN.name == "kitdemo"
    assert DOMAIN.policy == (KITDEMO / "policy.md").read_text(encoding="utf-8")
    assert DOMAIN.world.ddl.startswith((KITDEMO / "schema.sql").read_text(encoding="utf-8"))
    assert DOMAIN.task_dir == KITDEMO / "tasks"


def test_a_folder_without_a_policy_is_refused_in_one_line_naming_the_file(tmp_path: Path) -> None:
    shutil.copy(KITDEMO / "schema.sql", tmp_path / "schema.sql")
    with pytest.raises(ValueError, match=r"^domain '[^']+': cannot read .*policy\.md \(No such file or directory\)$"):
        build_domain(tmp_path, description="", world=OwnWorld(NOW, seed), tools=[])


def test_the_world_s_ddl_replaces_the_folder_s_schema_and_a_folder_may_be_a_string(tmp_path: Path) -> None:
    shutil.copy(KITDEMO / "policy.md", tmp_path / "policy.md")
    ddl = "CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT);"
    built = build_domain(str(tmp_path), name="notes", description="", world=OwnWorld(NOW, ddl=ddl), tools=[])
    assert (built.name, built.world.ddl.split("\n")[0]) == ("notes", ddl)


def test_id_sequences_keep_the_order_given_and_a_table_may_start_elsewhere() -> None:
    got = id_sequences(50001, cards="CRD-", transactions=("TXN-", 500001), disputes="DSP-")
    assert list(got.items()) == [("cards", Sequence("CRD-", 50001)), ("transactions", Sequence("TXN-", 500001)),
                                 ("disputes", Sequence("DSP-", 50001))]


def test_seed_rows_number_each_prefix_on_its_own_and_draw_from_one_fixed_stream() -> None:
    a, b = SeedRows(7), SeedRows(7)
    ids = [a.next_id("X-", 10), a.next_id("Y-", 1), a.next_id("X-", 10)]
    assert ids == ["X-10", "Y-1", "X-11"]
    assert [a.r.random() for _ in range(3)] == [b.r.random() for _ in range(3)]


def test_insert_rows_inserts_tables_in_order_with_the_first_row_s_columns() -> None:
    rows = SeedRows(1)
    row = rows.add("people", {"id": "P-1", "name": "Ada"})
    row["name"] = "Ada L."  # a row changed after it was added is inserted as changed
    rows.add("people", {"name": "Bo", "id": "P-2"})
    rows.add("pets", {"id": "T-1", "owner": "P-2"})
    conn = sqlite3.connect(":memory:")
    conn.executescript("CREATE TABLE people (id TEXT, name TEXT); CREATE TABLE pets (id TEXT, owner TEXT);")
    insert_rows(conn, rows.rows)
    assert conn.execute("SELECT id, name FROM people ORDER BY rowid").fetchall() == [("P-1", "Ada L."), ("P-2", "Bo")]
    assert conn.execute("SELECT id, owner FROM pets").fetchall() == [("T-1", "P-2")]


def test_a_lookup_finds_the_row_by_the_id_as_typed_or_names_the_row_and_the_hint() -> None:
    session = Session(DOMAIN.build_snapshot())
    member_row = lookup("members", "MEM", "member ids look like MEM-1.")
    assert member_row(session, " mem-1 ")["name"] == "Ada Byron"
    with pytest.raises(NotFound) as missing:
        member_row(session, "MEM-404")
    assert (str(missing.value), missing.value.hint) == ("no member with id 'MEM-404'.", "member ids look like MEM-1.")


def test_a_lookup_calls_a_row_by_the_table_s_name_in_the_singular_unless_told() -> None:
    assert [lookup(t, "X", "").what for t in ("claim_lines", "policies", "software")] == [
        "claim line", "policy", "software"]
    assert lookup("software", "SW", "", what="software title").what == "software title"


def test_table_specs_give_several_tables_the_same_options_in_order() -> None:
    assert table_specs("refunds", "charges", ledger=True) == [TableSpec("refunds", ledger=True),
                                                               TableSpec("charges", ledger=True)]
