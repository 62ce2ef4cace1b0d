"""build_domain: a domain from its folder (schema, policy, tasks, trace checks), its own tables and tools, and
the kit components it composes."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
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


@dataclass(frozen=True)
class OwnWorld:
    """A domain's own part of its world: the frozen clock, the seed, its tables' judging specs, its id sequences.

    `tables` are TableSpecs (a table without one is judged with the defaults); `ddl` replaces the folder's
    schema.sql when given.
    """

    now: datetime
    seed: Seeder | None = None
    tables: Iterable[TableSpec] = ()
    sequences: Mapping[str, Sequence] = field(default_factory=dict)
    ddl: str | None = None


@dataclass(frozen=True)
class DomainRules:
    """What judges a domain beyond its end state, and how its tools count for the suite's shape (judge/shape).

    `trace_checks`: a list, or a YAML file of them; by default the folder's `trace_checks.yaml` when it exists.
    `helpdesk_tools` and `identity_tools` add the domain's own to those the components and checks imply.
    """

    checks: Iterable[Callable[[Task], list[str]]] = ()
    trace_checks: Iterable[TraceCheck] | Path | None = None
    helpdesk_tools: Iterable[str] = ()
    identity_tools: Iterable[str] = ()


def build_domain(
    folder: Path | str,
    world: OwnWorld,
    tools: Iterable[Tool],
    components: Iterable[Component] = (),
    *,
    description: str,
    rules: DomainRules = DomainRules(),
    name: str | None = None,
) -> Domain:
    """The Domain in `folder`: its schema.sql, policy.md (made searchable), tasks/ and trace_checks.yaml, with
    the world's tables, sequences and the tools merged with the components' (names must not clash).

    The domain is named after its folder unless `name` is given. The components' tools are helpdesk tools,
    their code tools and the checks' `verified_by` tools identity tools.
    """
    folder = Path(folder)
    name = name or folder.name
    parts = list(components)
    policy = _read(folder, "policy.md", name)
    ddl = world.ddl if world.ddl is not None else _read(folder, "schema.sql", name)
    spec = _world(name, ddl, policy, world, parts)
    agent_tools, customer_tools = _toolsets(name, list(tools), parts)
    declared = _trace_checks(folder, rules.trace_checks)
    helpdesk, identity = _record_keeping(parts, declared, rules.helpdesk_tools, rules.identity_tools)
    unknown = sorted((helpdesk | identity) - set(agent_tools.names))
    if unknown:
        raise ValueError(f"domain {name!r}: helpdesk or identity tools {unknown} are not among its tools")
    return Domain(name=name, world=spec, tools=agent_tools, policy=policy,
                  task_dir=folder / "tasks", description=description, checks=list(rules.checks),
                  customer_tools=customer_tools, trace_checks=declared, helpdesk_tools=helpdesk,
                  identity_tools=identity)


def _read(folder: Path, file: str, domain: str) -> str:
    try:
        return (folder / file).read_text(encoding="utf-8")
    except OSError as e:
        raise ValueError(f"domain {domain!r}: cannot read {folder / file} ({e.strerror or e})") from None


def _world(name: str, ddl: str, policy: str, own: OwnWorld, parts: list[Component]) -> WorldSpec:
    """The world spec: the domain's DDL, specs and sequences, then every component's, then the policy index."""
    sections = policy_sections(policy)
    if not sections:
        raise ValueError(f"domain {name!r}: the policy has no '## N. Title' sections to search")
    tables = _merge("table", name, [{t.name: t for t in own.tables}, *(c.tables for c in parts)])
    sequences = _merge("sequence", name, [dict(own.sequences), *(c.sequences for c in parts)])
    seeders = [s for s in [own.seed, *(c.seed for c in parts)] if s is not None]

    def seed_all(conn: sqlite3.Connection) -> None:
        for s in seeders:
            s(conn)
        add_entries(conn, sections)

    return WorldSpec(name=name, ddl="\n".join([ddl, *(c.ddl for c in parts), INDEX_DDL]), tables=tables,
                     now=own.now, seed=seed_all, sequences=sequences)


def _toolsets(name: str, tools: list[Tool], parts: list[Component]) -> tuple[Toolset, Toolset]:
    """The agent's tools (the domain's, the components', and search_policy unless the domain has its own) and
    the simulated customer's."""
    agent_tools = [*tools, *(t for c in parts for t in c.tools)]
    if "search_policy" not in {t.name for t in agent_tools}:
        agent_tools.append(search_policy_tool())
    customer_tools = [t for c in parts for t in c.customer_tools]
    _unique_tools(name, agent_tools)
    _unique_tools(name, customer_tools)
    return Toolset(agent_tools), Toolset(customer_tools)


def _trace_checks(folder: Path, given: Iterable[TraceCheck] | Path | None) -> list[TraceCheck]:
    if given is None:
        default = folder / "trace_checks.yaml"
        given = default if default.is_file() else []
    return load_trace_checks(given) if isinstance(given, Path) else list(given)


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
