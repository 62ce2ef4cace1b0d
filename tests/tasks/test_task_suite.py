"""Suites: selection by pattern and content hashes that change exactly when a task does."""

from __future__ import annotations

import pytest

from minidomain import TASK_DIR, make_task, mini_suite
from statebox.suites import Suite
from statebox.tasks import load_task_dir


def ids(suite: Suite) -> list[str]:
    return [t.id for t in suite.tasks]


def test_select_keeps_the_tasks_whose_ids_match_a_glob():
    assert ids(mini_suite().select(["*-ticket"])) == ["solve-printer-ticket"]


def test_select_with_several_globs_keeps_tasks_matching_any():
    assert ids(mini_suite().select(["check-*", "report-*"])) == ["check-status", "report-outage"]


def test_select_without_patterns_keeps_every_task():
    assert ids(mini_suite().select()) == ids(mini_suite())


def test_globs_match_whole_ids_case_sensitively():
    assert ids(mini_suite().select(["solve"])) == []
    assert ids(mini_suite().select(["SOLVE-*"])) == []


def test_select_by_id_list_refuses_unknown_ids():
    suite = mini_suite()
    assert ids(suite.select(ids=["hold-or-solve"])) == ["hold-or-solve"]
    with pytest.raises(LookupError, match=r"no task\(s\) \['nope'\]"):
        suite.select(ids=["hold-or-solve", "nope"])


def test_an_unknown_task_id_is_an_error_naming_the_suite():
    with pytest.raises(LookupError, match="suite 'mini' has no task 'nope'"):
        mini_suite().task("nope")


def test_a_selection_shares_the_suites_snapshot():
    suite = mini_suite()
    assert suite.select(["check-*"]).snapshot("mini") is suite.snapshot("mini")


def test_task_hashes_are_stable_across_loads():
    first = {t.id: t.content_hash() for t in load_task_dir(TASK_DIR, "mini")}
    second = {t.id: t.content_hash() for t in load_task_dir(TASK_DIR, "mini")}
    assert first == second
    assert len(set(first.values())) == len(first)


def test_a_task_hash_changes_when_any_part_of_the_task_changes():
    base = make_task(reference=[{"tool": "update_ticket", "args": {"ticket_id": "T-1", "status": "solved"}}])
    changed = make_task(reference=[{"tool": "update_ticket", "args": {"ticket_id": "T-1", "status": "hold"}}])
    assert base.content_hash() != changed.content_hash()
    assert base.content_hash() != make_task(tags=["new"], reference=base.reference).content_hash()


def test_a_suite_hash_changes_when_one_of_its_tasks_changes_and_not_otherwise():
    tasks = load_task_dir(TASK_DIR, "mini")
    edited = [t.model_copy(update={"rubrics": ["Is it polite?"]}) if t.id == "check-status" else t for t in tasks]
    assert mini_suite(tasks).content_hash() == mini_suite().content_hash()
    assert mini_suite(reversed(tasks)).content_hash() == mini_suite().content_hash()
    assert mini_suite(edited).content_hash() != mini_suite().content_hash()


def test_a_suite_hash_covers_exactly_the_selected_tasks():
    suite = mini_suite()
    assert suite.select(["*"]).content_hash() == suite.content_hash()
    assert suite.select(["check-*"]).content_hash() != suite.content_hash()
