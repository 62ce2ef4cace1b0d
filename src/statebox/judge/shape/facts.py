"""Private facts a tool gives away: the agent could look them up instead of asking the customer.

A fact counts when the reference passes its value whole as an argument (it identifies something: a
claim, an engagement code, a card's last digits) and it is data-shaped (an id, a date, an amount, an
email). It is discoverable when a call of the reference that an agent could make without it — with
only the opening message, the other facts the customer states and what such calls showed — shows its
value, and the same call shows it at the task's start too (so no upload or write of the conversation
is what showed it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from statebox.judge.trace import Event
from statebox.tasks import Fact, Task
from statebox.tasks.checks import VerifyBefore
from statebox.tasks.dialogue import scalars, states
from statebox.tasks.references import references_in
from statebox.tasks.worlds import TaskWorlds


def discoverable_facts(suite: TaskWorlds, task: Task, trace: Sequence[Event]) -> list[str]:
    """The task's discoverable facts, as 'key (tool)'.

    Left out: identifying facts a verify_before check lists (the check judges what the customer said, so
    an agent that reads them in a record still has to hear them), and facts released by a customer
    action (`via`: a document is seen once uploaded, and the upload is judged).
    """
    identifying = {k for c in task.checks if isinstance(c, VerifyBefore) for k in c.facts}
    calls = [e for e in trace if e.kind == "call" and e.ok]
    out = []
    for fact in task.customer.facts:
        if fact.key in identifying or fact.via is not None or not _identifies(fact, calls):
            continue
        call = _shown_without(task, fact, calls)
        if call is not None and _shown_at_start(suite, task, fact, call):
            out.append(f"{fact.key} ({call.tool})")
    return out


def _identifies(fact: Fact, calls: list[Event]) -> bool:
    """A data-shaped value the reference passes whole as an argument."""
    data_shaped = any(ch.isdigit() for ch in fact.value) or "@" in fact.value
    return data_shaped and any(v == fact.value for e in calls for v in scalars(e.args))


def _shown_without(task: Task, fact: Fact, calls: list[Event]) -> Event | None:
    """The first call that shows the fact's value to an agent holding only what it may hold without it.

    A call with an argument from anywhere else (the fact itself, a document, a record only the fact leads
    to, an earlier result by reference) holds more, and what it shows does not count.
    """
    free = " ".join([task.opening_message, *(f.value for f in task.customer.facts if f is not fact and not f.via)])
    for e in calls:
        if references_in(e.args) or any(_is_data(a) and a not in free for a in scalars(e.args)):
            continue
        if _shows(fact, e.text):
            return e
        free += " " + e.text
    return None


def _shown_at_start(suite: TaskWorlds, task: Task, fact: Fact, call: Event) -> bool:
    session = suite.open_session(task)
    try:
        outcome = suite.domain_of(task).tools.call(session, call.tool, dict(call.args))
    finally:
        session.close()
    return not outcome.is_error and _shows(fact, outcome.text)


def _shows(fact: Fact, text: str) -> bool:
    """The value as a whole word (4 digits inside a passport number are not a card's last four), or a date
    or phone number written another way."""
    whole = re.search(rf"(?<!\w){re.escape(fact.value)}(?!\w)", text, re.IGNORECASE) is not None
    return whole or (fact.value.lower() not in text.lower() and states(fact, text))


def _is_data(value: str) -> bool:
    return any(ch.isdigit() for ch in value) or "@" in value
