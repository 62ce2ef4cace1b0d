"""Every discovered domain, built-in or plugged in: its tasks validate and it meets the conformance bar."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from statebox.judge import required_effects, rules_for
from statebox.judge.validation import validate_suite
from statebox.suites import Suite, load_suite
from statebox.tasks import Domain
from statebox.tasks.worlds import discover_domains
from statebox.tools.policy_search import policy_sections
from statebox.world import Session

DOMAINS = discover_domains()
NAMES = sorted(DOMAINS)


@pytest.fixture(scope="module", params=NAMES)
def domain(request: pytest.FixtureRequest) -> Domain:
    return DOMAINS[request.param]


@pytest.mark.parametrize("name", NAMES)
def test_every_task_passes_every_validation_check(name: str) -> None:
    results = validate_suite(load_suite(name))
    broken = {r.id: r.problems or ["failed a check"] for r in results if not r.ok}
    assert results, f"{name} has no tasks"
    assert not broken, f"{len(broken)} of {len(results)} {name} tasks are not valid: {broken}"


def test_the_seed_is_deterministic(domain: Domain) -> None:
    assert domain.build_snapshot().image == domain.build_snapshot().image, f"{domain.name}: two seeds differ"


def test_every_tool_is_described_with_a_valid_schema(domain: Domain) -> None:
    problems = []
    for spec in [*domain.tools.specs(), *domain.customer_tools.specs()]:
        if len(spec.description) < 15:
            problems.append(f"{spec.name}: description {spec.description!r} is too short")
        try:
            jsonschema.Draft202012Validator.check_schema(spec.input_schema)
        except jsonschema.SchemaError as e:
            problems.append(f"{spec.name}: invalid schema: {e.message}")
        for arg, prop in spec.input_schema.get("properties", {}).items():
            if not prop.get("description"):
                problems.append(f"{spec.name}.{arg}: no description")
    assert not problems, problems


def test_every_policy_section_is_found_by_its_title(domain: Domain) -> None:
    session = Session(domain.build_snapshot())
    missed = []
    for section in policy_sections(domain.policy):
        outcome = domain.tools.call(session, "search_policy", {"query": section.title})
        titles = [] if outcome.is_error else [hit["title"] for hit in outcome.data]
        if section.title not in titles:
            missed.append(f"{section.title!r} -> {titles}")
    assert len(policy_sections(domain.policy)) >= 12 or domain.name.startswith("test"), "a policy needs 12+ sections"
    assert not missed, missed


def test_the_policy_states_the_fixed_now(domain: Domain) -> None:
    now = domain.world.now
    ways = [now.date().isoformat(), f"{now:%B} {now.day}, {now.year}", f"{now.day} {now:%B} {now.year}"]
    assert any(w in domain.policy for w in ways), f"{domain.name}: the policy never states {ways[0]} (as {ways})"


@pytest.fixture(scope="module")
def builtin() -> Suite:
    return load_suite("builtin")


def test_the_domain_is_part_of_the_builtin_suite(domain: Domain, builtin: Suite) -> None:
    assert domain.name in builtin.domains
    assert any(t.domain == domain.name for t in builtin.tasks)


def test_task_ids_are_unique_and_named_like_files(domain: Domain, builtin: Suite) -> None:
    tasks = [t for t in builtin.tasks if t.domain == domain.name]
    ids = [t.id for t in tasks]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z0-9_]+", i) for i in ids), [i for i in ids if not re.fullmatch(r"[a-z0-9_]+", i)]


GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("STATEBOX_UPDATE_GOLDEN") == "1"


def pinned(suite: Suite) -> dict[str, Any]:
    """Per task: its reference's calls, in order, and the hash of the end state they require."""
    out: dict[str, Any] = {}
    for task in suite.tasks:
        required = required_effects(suite, task)[0]
        ignored = rules_for(suite, task).hash_ignored()
        out[task.id] = {
            "calls": [f"{c.actor}:{c.tool}" for c in task.reference],
            "required_state": required.state_hash(ignored)[:16],
        }
    return out


@pytest.mark.parametrize("name", NAMES)
def test_every_reference_and_required_end_state_is_the_one_reviewed(name: str) -> None:
    """A reference call added, removed or changed in effect shows here: the pinned file changes only on purpose.

    After a deliberate change: STATEBOX_UPDATE_GOLDEN=1 pytest tests/domains/test_every_domain.py
    """
    path = GOLDEN / f"{name}.json"
    now = pinned(load_suite(name))
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    assert path.is_file(), f"no pinned references for {name}: run with STATEBOX_UPDATE_GOLDEN=1 once and review"
    before = json.loads(path.read_text(encoding="utf-8"))
    changed = {t: {"pinned": before.get(t), "now": now.get(t)} for t in sorted(before.keys() | now.keys())
               if before.get(t) != now.get(t)}
    assert not changed, f"{len(changed)} {name} task(s) differ from the reviewed references: {changed}"
