"""A campaign starts the attempts of its longest tasks first, so its last attempts are short ones."""

from __future__ import annotations

from statebox.runner.plan import WorkItem, longest_first
from statebox.suites import load_suite


def test_attempts_start_longest_reference_first_and_keep_their_order_otherwise():
    tasks = sorted(load_suite("retail").tasks, key=lambda t: t.id)[:6]
    items = [WorkItem(task, "openai:fake", r, f"{task.id}/{r}") for task in tasks for r in range(2)]
    ordered = longest_first(items)
    lengths = [len(item.task.reference) for item in ordered]
    assert lengths == sorted(lengths, reverse=True)
    assert sorted(ordered, key=lambda i: i.trial_id) == sorted(items, key=lambda i: i.trial_id)  # none lost
    for length in set(lengths):  # ties keep the plan's order (task, then repeat)
        same = [i.trial_id for i in items if len(i.task.reference) == length]
        assert [i.trial_id for i in ordered if len(i.task.reference) == length] == same
