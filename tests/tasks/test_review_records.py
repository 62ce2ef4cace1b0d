"""Blind-review records: what a record must say, when it is current, and storing one beside its task."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from kitdemo import DOMAIN
from statebox.suites import Suite
from statebox.tasks import TaskFileError, load_task_dir
from statebox.tasks.review import ReviewRecord, load_reviews, parse_review, review_state, reviewed_hash, store_records


@pytest.fixture
def suite(tmp_path: Path) -> Suite:
    """The kit demo domain with its tasks copied to a folder the test may write review records into."""
    shutil.copytree(DOMAIN.task_dir, tmp_path / "tasks")
    domain = dataclasses.replace(DOMAIN, task_dir=tmp_path / "tasks")
    return Suite("kitdemo", domain.load_tasks(), {"kitdemo": domain})


def record(suite: Suite, **changes: Any) -> dict[str, Any]:
    task = suite.tasks[0]
    base = {"task": task.id, "reviewer": "R. Viewer", "date": "2026-03-02",
            "task_hash": reviewed_hash(task, suite.domain_of(task)),
            "expected": {"end_state": ["the member's street is 22 Acacia Avenue"],
                         "must_not_happen": ["a change before the code is checked"], "must_be_said": []},
            "verdict": "agree"}
    return {**base, **changes}


def write(tmp_path: Path, *records: dict[str, Any]) -> Path:
    path = tmp_path / "reviews.yaml"
    path.write_text(yaml.safe_dump({"reviews": list(records)}), encoding="utf-8")
    return path


def test_a_record_with_no_expected_end_state_is_refused(suite: Suite) -> None:
    with pytest.raises(TaskFileError, match=r"field 'expected.end_state'.*at least 1 item"):
        parse_review("r.yaml", record(suite, expected={"end_state": []}))


def test_a_disagreement_says_where_the_task_differs(suite: Suite) -> None:
    with pytest.raises(TaskFileError, match="differences"):
        parse_review("r.yaml", record(suite, verdict="disagree"))


def test_a_resolution_that_changed_the_task_names_the_changed_task_hash(suite: Suite) -> None:
    with pytest.raises(TaskFileError, match="task_hash"):
        parse_review("r.yaml", record(suite, verdict="disagree", differences="refund expected",
                                      resolution={"kind": "changed_task", "note": "added the refund"}))


def test_a_record_of_the_task_as_it_is_is_current(suite: Suite) -> None:
    task = suite.tasks[0]
    rec = ReviewRecord.model_validate(record(suite))
    assert review_state(rec, task, suite.domain_of(task)) == "current"
    assert review_state(None, task, suite.domain_of(task)) == "missing"


def test_a_task_edited_after_its_review_has_a_stale_review(suite: Suite) -> None:
    task = suite.tasks[0]
    rec = ReviewRecord.model_validate(record(suite))
    edited = task.model_copy(update={"opening_message": task.opening_message + " Thanks!"})
    assert review_state(rec, edited, suite.domain_of(task)) == "stale"


def test_an_unresolved_disagreement_is_open_and_a_written_reason_closes_it(suite: Suite) -> None:
    task, domain = suite.tasks[0], suite.domain_of(suite.tasks[0])
    disagree = record(suite, verdict="disagree", differences="I expected a ticket too")
    assert review_state(ReviewRecord.model_validate(disagree), task, domain) == "open"
    reasoned = {**disagree, "resolution": {"kind": "written_reason", "note": "policy 1 asks for no ticket"}}
    assert review_state(ReviewRecord.model_validate(reasoned), task, domain) == "current"


def test_the_domain_trace_checks_are_not_part_of_the_reviewed_hash(suite: Suite) -> None:
    task, domain = suite.tasks[0], suite.domain_of(suite.tasks[0])
    stricter = dataclasses.replace(domain, trace_checks=[*task.checks[:1]])
    judged_more = task.model_copy(update={"checks": [*task.checks[:1], *task.checks]})
    assert reviewed_hash(judged_more, stricter) == reviewed_hash(task, domain)


def test_stored_records_land_beside_their_task_and_load_back(suite: Suite, tmp_path: Path) -> None:
    [written] = store_records(suite, write(tmp_path, record(suite)))
    assert written == suite.domain_of(suite.tasks[0]).task_dir / "verified_street_change.review.yaml"
    found = load_reviews(suite.domain_of(suite.tasks[0]))
    assert isinstance(found["verified_street_change"], ReviewRecord)
    assert found["verified_street_change"].reviewer == "R. Viewer"


def test_a_review_record_beside_the_tasks_is_not_read_as_a_task(suite: Suite, tmp_path: Path) -> None:
    store_records(suite, write(tmp_path, record(suite)))
    assert [t.id for t in load_task_dir(suite.domain_of(suite.tasks[0]).task_dir, "kitdemo")] == [
        "verified_street_change"]


def test_a_file_with_one_stale_record_stores_none_of_them(suite: Suite, tmp_path: Path) -> None:
    stale = record(suite, task_hash="0" * 16)
    with pytest.raises(TaskFileError, match=r"\(record 1\).*stale: the task's hash is [0-9a-f]{16} now"):
        store_records(suite, write(tmp_path, record(suite), stale))
    assert load_reviews(suite.domain_of(suite.tasks[0])) == {}


def test_a_record_for_a_task_the_suite_does_not_have_is_refused(suite: Suite, tmp_path: Path) -> None:
    with pytest.raises(TaskFileError, match="has no task 'nope'"):
        store_records(suite, write(tmp_path, record(suite, task="nope")))
