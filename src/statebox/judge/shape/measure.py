"""One task's part of the suite's shape, read from its reference trace (the calls, with what the customer said)."""

from __future__ import annotations

from collections.abc import Sequence

from statebox.judge.shape.facts import discoverable_facts
from statebox.judge.shape.model import TaskShape
from statebox.judge.shape.naming import names, records_named
from statebox.judge.trace import Event
from statebox.tasks import Domain, Task
from statebox.tasks.checks import ConfirmBefore, VerifyBefore
from statebox.tasks.worlds import TaskWorlds
from statebox.tools.policy_search import policy_sections


def task_shape(suite: TaskWorlds, task: Task, trace: Sequence[Event]) -> TaskShape:
    """The task's writes, helpdesk share, verification, discoverable facts, confirmations and problem lines."""
    domain = suite.domain_of(task)
    calls = [e for e in trace if e.kind == "call" and e.ok]
    writes = [e for e in calls if e.tool in domain.tools and domain.tools[e.tool].writes]
    outcome = [e for e in writes if e.tool not in domain.identity_tools]
    shape = TaskShape(
        id=task.id,
        domain=task.domain,
        writes=[e.tool for e in outcome],
        write_keys=[f"{e.tool}({','.join(sorted(e.args))})" for e in outcome],
        helpdesk_only=bool(writes) and all(e.tool in domain.helpdesk_tools | domain.identity_tools for e in writes),
        read_only=task.read_only,
        unverified=_unverified(task, calls if task.read_only else writes),
        discoverable=discoverable_facts(suite, task, trace),
        unconfirmed=_unconfirmed(task, writes, trace),
        policy_sections=list(task.policy_sections),
    )
    shape.problems = _problems(domain, task, shape)
    return shape


def _unverified(task: Task, judged: list[Event]) -> bool:
    """The policy requires verification (the task has a verify_before check) and none guards these calls."""
    guarded = {t for c in task.checks if isinstance(c, VerifyBefore) for t in c.tools}
    required = any(isinstance(c, VerifyBefore) for c in task.checks) and not task.verification_not_required
    return required and not any(e.tool in guarded for e in judged)


def _unconfirmed(task: Task, writes: list[Event], trace: Sequence[Event]) -> list[str]:
    """Writes under a confirm_before check that none of the customer's confirmations names.

    A customer with no `confirms` agrees to whatever it is asked to confirm, so nothing is unconfirmed.
    """
    if not task.customer.confirms:
        return []
    guarded = {t for c in task.checks if isinstance(c, ConfirmBefore) for t in c.tools}
    return [
        e.tool
        for e in writes
        if e.tool in guarded
        and not any(names(p, e.tool, e.args, records_named(e, trace)) for p in task.customer.confirms)
    ]


def _problems(domain: Domain, task: Task, shape: TaskShape) -> list[str]:
    out = []
    if shape.unverified:
        out.append("no write is guarded by a verify_before check, though the policy requires verification "
                   "(guard one, or say why not in verification_not_required)")
    out += [f"private fact {d} is shown by a tool before the customer states it" for d in shape.discoverable]
    out += [f"{tool} needs the customer's confirmation, and no `confirms` entry names it" for tool in shape.unconfirmed]
    known = {int(s.section) for s in policy_sections(domain.policy) if s.section.isdigit()}
    if not task.policy_sections:
        out.append("declares no policy_sections (the sections whose rules decide its end state)")
    elif unknown := sorted(set(task.policy_sections) - known):
        out.append(f"policy_sections {unknown} are not sections of the {domain.name} policy")
    return out
