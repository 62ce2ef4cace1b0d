"""Task files parsed once per content (tasks/yaml_cache.py): the cache gives back exactly what parsing gives,
never an edited file's old content, and never stands in the way when it cannot be used."""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import pytest
import yaml

from statebox.tasks.loader import SAFE_LOADER, load_task_dir, read_yaml
from statebox.tasks.yaml_cache import FOLDER, load_yaml_cached

RETAIL_TASKS = Path(__file__).resolve().parents[2] / "src" / "statebox" / "domains" / "retail" / "tasks"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("STATEBOX_CACHE_DIR", str(folder))
    return folder


def entries(cache: Path) -> list[Path]:
    return sorted((cache / FOLDER).rglob("*.json")) if (cache / FOLDER).exists() else []


def test_every_retail_task_file_reads_back_from_the_cache_as_parsing_gives_it(cache: Path) -> None:
    files = sorted(RETAIL_TASKS.glob("*.yaml"))
    parsed = {p.name: yaml.load(p.read_text(encoding="utf-8"), Loader=SAFE_LOADER) for p in files}
    first = {p.name: read_yaml(p) for p in files}
    assert len(entries(cache)) == len(set(p.read_bytes() for p in files)), "every built-in task file is kept"
    again = {p.name: read_yaml(p) for p in files}
    assert first == parsed and again == parsed
    assert load_task_dir(RETAIL_TASKS, "retail") == load_task_dir(RETAIL_TASKS, "retail")


def test_an_edited_file_is_parsed_again(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text("id: one\nrepeat: 1\n")
    assert read_yaml(path) == {"id": "one", "repeat": 1}
    path.write_text("id: two\nrepeat: 2\n")
    assert read_yaml(path) == {"id": "two", "repeat": 2}
    assert len(entries(cache)) == 2


def test_a_document_json_cannot_keep_exactly_is_parsed_every_time(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text("when: 2025-10-01\n7: seven\n")
    assert read_yaml(path) == {"when": datetime.date(2025, 10, 1), 7: "seven"}
    assert entries(cache) == []
    assert read_yaml(path) == {"when": datetime.date(2025, 10, 1), 7: "seven"}


def test_a_damaged_entry_is_parsed_again_and_rewritten(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text("id: one\n")
    read_yaml(path)
    [entry] = entries(cache)
    entry.write_text('{"id": "on')  # cut short
    assert read_yaml(path) == {"id": "one"}
    assert entry.read_text() == '{"id":"one"}'


def test_a_cache_that_cannot_be_written_is_passed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a-file-not-a-folder"
    blocked.write_text("")
    monkeypatch.setenv("STATEBOX_CACHE_DIR", str(blocked))
    path = tmp_path / "t.yaml"
    path.write_text("id: one\n")
    assert load_yaml_cached(path, SAFE_LOADER) == {"id": "one"}
    assert set(os.listdir(tmp_path)) == {"a-file-not-a-folder", "t.yaml"}, "nothing half-written is left"


def test_bad_yaml_is_still_the_loaders_error(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text("id: [unclosed\n")
    with pytest.raises(yaml.YAMLError):
        read_yaml(path)
    assert entries(cache) == []
