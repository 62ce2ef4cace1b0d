"""build_domain: a domain from its own tables and tools plus the kit components it composes."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import TypeVar

from statebox.kit.component import Component, Seeder
from statebox.tasks import Domain, Task
from statebox.tasks.checks import TraceCheck, VerifyBefore
from statebox.tasks.loader import load_trace_checks
from statebox.tools import Tool, Toolset
from statebox.tools.policy_search import INDEX_DDL, add_entries, policy_sections, search_policy_tool
from statebox.world import Sequence, TableSpec, WorldSpec

T = TypeVar("T")


def build_domain(
    *,
    name: str,
    description: str,
    now: datetime,
    ddl: str,
    tables: dict[str, TableSpec],
    sequences: dict[str, Sequence],
    tools: Iterable[Tool],
    policy: str,
    task_dir: Path,
    seed: Seeder | None = None,
    components: Iterable[Component] = (),
    checks: Iterable[Callable[[Task], list[str]]] = (),
    trace_checks: Iterable[TraceCheck] | Path | None = None,
    helpdesk_tools: Iterable[str] = (),
    identity_tools: Iterable[str] = (),
) -> Domain:
    """The Domain: DDL, specs, sequences and tools merged (names must not clash), the policy searchable.

    `trace_checks` judge every task's trace: a list, or a YAML file of them (by default the
    domain folder's `trace_checks.yaml`, when it exists). The components' tools are helpdesk tools, their
    code tools and the checks' `verified_by` tools identity tools; `helpdesk_tools` and `identity_tools` add
    the domain's own (for the suite's shape, judge/shape).
    """
    parts = list(components)
    sections = policy_sections(policy)
    if not sections:
        raise ValueError(f"domain {name!r}: the policy has no '## N. Title' sections to search")
    all_tables = _merge("table", name, [tables, *(c.tables for c in parts)])
    all_sequences = _merge("sequence", name, [sequences, *(c.sequences for c in parts)])
    agent_tools = [*tools, *(t for c in parts for t in c.tools)]
    if "search_policy" not in {t.name for t in agent_tools}:
        agent_tools.append(search_policy_tool())
    _unique_tools(name, agent_tools)
    customer_tools = [t for c in parts for t in c.customer_tools]
    _unique_tools(name, customer_tools)
    seeders = [s for s in [seed, *(c.seed for c in parts)] if s is not None]

    def seed_all(conn: sqlite3.Connection) -> None:
        for s in seeders:
            s(conn)
        add_entries(conn, sections)

    world = WorldSpec(
        name=name,
        ddl="\n".join([ddl, *(c.ddl for c in parts), INDEX_DDL]),
        tables=all_tables,
        now=now,
        seed=seed_all,
        sequences=all_sequences,
    )
    default_checks = task_dir.parent / "trace_checks.yaml"
    if trace_checks is None:
        trace_checks = default_checks if default_checks.is_file() else []
    declared = load_trace_checks(trace_checks) if isinstance(trace_checks, Path) else list(trace_checks)
    helpdesk, identity = _record_keeping(parts, declared, helpdesk_tools, identity_tools)
    unknown = sorted((helpdesk | identity) - {t.name for t in agent_tools})
    if unknown:
        raise ValueError(f"domain {name!r}: helpdesk or identity tools {unknown} are not among its tools")
    return Domain(name=name, world=world, tools=Toolset(agent_tools), policy=policy, task_dir=task_dir,
                  description=description, checks=list(checks), customer_tools=Toolset(customer_tools),
                  trace_checks=declared, helpdesk_tools=helpdesk, identity_tools=identity)


def _record_keeping(
    parts: list[Component], checks: list[TraceCheck], helpdesk: Iterable[str], identity: Iterable[str]
) -> tuple[frozenset[str], frozenset[str]]:
    """The helpdesk tools (every component's, plus the domain's) and the identity tools (codes, verifiers)."""
    kit = {t.name for c in parts for t in c.tools if t.writes}
    codes = {t.name for c in parts if c.name == "customer_side" for t in c.tools if t.writes}
    verifiers = {t for c in checks if isinstance(c, VerifyBefore) for t in c.verified_by}
    return frozenset(kit | set(helpdesk)), frozenset(codes | verifiers | set(identity))


def _merge(what: str, domain: str, maps: list[dict[str, T]]) -> dict[str, T]:
    out: dict[str, T] = {}
    for m in maps:
        for key, value in m.items():
            if key in out:
                raise ValueError(f"domain {domain!r}: {what} {key!r} is declared twice")
            out[key] = value
    return out


def _unique_tools(domain: str, tools: list[Tool]) -> None:
    seen: set[str] = set()
    for t in tools:
        if t.name in seen:
            raise ValueError(f"domain {domain!r}: tool {t.name!r} is declared twice")
        seen.add(t.name)
