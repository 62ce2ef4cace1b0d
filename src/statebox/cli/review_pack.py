"""What `statebox review` prints: the blind pack (what a reviewer may see first) and the reveal (the rest).

The blind pack is the policy, the customer's situation, goal, persona, facts and rules, the task's now and
its initial rows (with the seed rows they name, so a product's category or an employee's manager can be
read). Nothing of the task's answer is in it: no title or tags (they often name the outcome), no
confirmations, reference, alternatives, required effects, trace checks, rubrics or policy sections.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import yaml

from statebox.judge.replay import ReferenceFailed, required_effects
from statebox.suites import Suite
from statebox.tasks import Task
from statebox.tasks.loader import task_file
from statebox.tasks.review import ReviewRecord, load_reviews, reviewed_hash
from statebox.world import Session

_ID = re.compile(r"^[A-Z]{2,6}-[A-Z0-9][A-Z0-9-]*$")


def _head(title: str) -> str:
    """A section of the pack, set apart from the policy's own markdown headings."""
    return f"==== {title} ===="


def dump(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110).rstrip()


def blind_pack(suite: Suite, tasks: list[Task], *, hide_ids: bool = False) -> str:
    """The policy of each domain once, then each task's situation, then a record to fill in. With `hide_ids`
    (a `--batch`), tasks are known by their hash alone: an id often names the outcome (`..._refused`)."""
    parts = [_head(f"Blind review: {len(tasks)} task(s) of {suite.name}"),
             "Write each task's expected end state, what must not happen and what must be said in the record "
             "at the end BEFORE you run --reveal. Then compare, set the verdict, and store it with --record."]
    for name in dict.fromkeys(t.domain for t in tasks):
        parts += [_head(f"The {name} policy"), suite.domains[name].policy.strip()]
    for n, task in enumerate(tasks, 1):
        name = f"task_hash {reviewed_hash(task, suite.domain_of(task))}" if hide_ids else task.id
        parts += [_head(f"Task {n} of {len(tasks)}: {name}"), _situation(suite, task)]
    parts += [_head(f"The record to fill in (save it, then: statebox review {suite.name} --record FILE)"),
              dump({"reviews": [_blank_record(suite, t, hide_ids) for t in tasks]})]
    return "\n\n".join(parts) + "\n"


def _situation(suite: Suite, task: Task) -> str:
    customer = task.customer
    shown: dict[str, Any] = {
        "now": (task.now or suite.domain_of(task).world.now).isoformat(),
        "the customer writes": task.opening_message,
        "goal": customer.goal,
        "persona": customer.persona,
        "facts (the customer gives each when asked)": {f.key: f.value for f in customer.facts},
        "rules": list(customer.rules),
        "initial rows (over the domain's seed data)": task.initial_rows,
        "seed rows the initial rows name": _named_seed_rows(suite, task),
    }
    return dump({k: v for k, v in shown.items() if v not in ("", [], {})})


def _blank_record(suite: Suite, task: Task, hide_id: bool) -> dict[str, Any]:
    return {"task": "" if hide_id else task.id, "task_hash": reviewed_hash(task, suite.domain_of(task)), "reviewer": "",
            "date": dt.date.today().isoformat(),
            "expected": {"end_state": [], "must_not_happen": [], "must_be_said": []},
            "verdict": "agree or disagree, after --reveal", "differences": ""}


def _named_seed_rows(suite: Suite, task: Task) -> dict[str, list[dict[str, Any]]]:
    """At the task's start, the whole rows the initial rows touch (a field the task overrides shown beside the
    seed's others: a departure's scheduled time next to its actual one), and the rows they name, two levels deep
    (an order's product, the product's warranty plan)."""
    wanted = {v for rows in task.initial_rows.values() for r in rows for k, v in r.items() if _names_a_row(k, v)}
    if not wanted:
        return {}
    session = suite.open_session(task)
    try:
        found = _rows_by_id(session, sorted(wanted))
        named = {v for rows in found.values() for r in rows for k, v in r.items() if _names_a_row(k, v)} - wanted
        for table, rows in _rows_by_id(session, sorted(named)).items():
            found.setdefault(table, []).extend(rows)
        return found
    finally:
        session.close()


def _names_a_row(key: str, value: Any) -> bool:
    """A value that may be a row's id: an `id` or `..._id` field, or an id-shaped string (ORD-90002)."""
    return isinstance(value, str) and (key == "id" or key.endswith("_id") or bool(_ID.match(value)))


def _rows_by_id(session: Session, ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {}
    for table in _tables(session):
        spec = session.spec.table(table)
        if spec.composite:
            continue
        for value in ids:
            row = session.one(f'SELECT * FROM "{table}" WHERE "{spec.primary_key}" = ?', value)
            if row is not None:
                found.setdefault(table, []).append(dict(row))
    return found


def _tables(session: Session) -> list[str]:
    names = [r["name"] for r in session.all("SELECT name FROM sqlite_master WHERE type = 'table'")]
    names += sorted(session.spec.shared_tables)
    return [n for n in names if not n.startswith(("_sb_", "sqlite_", "policy_fts"))]


def reveal(suite: Suite, tasks: list[Task]) -> str:
    """Everything the blind pack leaves out, per task, and its review record if there is one."""
    parts = [_head(f"Reveal: {len(tasks)} task(s) of {suite.name}")]
    for task in tasks:
        parts += [_head(task.id), dump(_answer(suite, task))]
    return "\n\n".join(parts) + "\n"


def _answer(suite: Suite, task: Task) -> dict[str, Any]:
    domain = suite.domain_of(task)
    record = load_reviews(domain).get(task.id)
    try:
        required: Any = [e.to_json() for e in required_effects(suite, task)]
    except ReferenceFailed as e:
        required = f"the reference fails: {e}"
    answer = {
        "title": task.title, "tags": list(task.tags), "policy_sections": list(task.policy_sections),
        "read_only": task.read_only, "customer confirms": list(task.customer.confirms),
        "customer may end satisfied": task.customer.may_end_satisfied,
        "verification_not_required": task.verification_not_required,
        "reference": [c.model_dump(exclude_defaults=True) for c in task.reference],
        "alternatives": [[c.model_dump(exclude_defaults=True) for c in alt] for alt in task.expect.alternatives],
        "ignore_fields": list(task.expect.ignore_fields),
        "required end states (the reference's, then each alternative's)": required,
        "trace checks": [f"{c.name}: {c.why}" if c.why else c.name for c in task.checks],
        "rubrics": [r.question for r in task.rubric_questions()],
        "file": str(task_file(domain.task_dir, task.id)),
        "review record": record.model_dump(mode="json") if isinstance(record, ReviewRecord) else str(record or ""),
    }
    return {k: v for k, v in answer.items() if v not in ("", [], None)}
