"""The suite's shape under `statebox validate`'s task table: per domain, each measure against its minimum."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from statebox.judge.shape import MINIMUMS, DomainShape, SuiteShape


def print_shape(shape: SuiteShape, console: Console) -> None:
    for domain in shape.domains:
        console.print(_table(domain))
        for task_id, lines in domain.task_problems.items():
            console.print(f"  [yellow]{escape(task_id)}[/]: {escape('; '.join(lines))}", highlight=False)


def _table(d: DomainShape) -> Table:
    m = MINIMUMS
    table = Table("measure", "measured", "minimum", "", title=f"shape of {d.domain} ({d.tasks} tasks)")
    rows = [
        ("distinct write sequences (tool names)", d.write_sequences, f">= {m.write_sequences}",
         d.write_sequences >= m.write_sequences),
        ("  with argument names", d.write_sequences_with_keys, "", None),
        ("helpdesk-only tasks", f"{d.helpdesk_only} ({d.helpdesk_share:.0%})", f"<= {m.helpdesk_share:.0%}",
         d.helpdesk_share <= m.helpdesk_share),
        ("read-only tasks", d.read_only, "", None),
        ("tasks no verification check guards", d.unverified_tasks, str(m.unverified_tasks),
         d.unverified_tasks <= m.unverified_tasks),
        ("discoverable private facts", d.discoverable_facts, str(m.discoverable_facts),
         d.discoverable_facts <= m.discoverable_facts),
        ("writes no confirmation names", d.unconfirmed_writes, str(m.unconfirmed_writes),
         d.unconfirmed_writes <= m.unconfirmed_writes),
        ("largest near-duplicate cluster", d.largest_cluster, f"<= {m.near_duplicate_cluster}",
         d.largest_cluster <= m.near_duplicate_cluster),
        ("current blind reviews", f"{d.reviews['current']}/{d.tasks}",
         f"stale {d.reviews['stale']}, open {d.reviews['open']}, none {d.reviews['missing']}", None),
    ]
    for name, got, bar, ok in rows:
        table.add_row(name, str(got), bar, "" if ok is None else ("[green]meets[/]" if ok else "[red]below[/]"))
    return table
