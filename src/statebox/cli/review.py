"""`statebox review`: blind-review tasks — the pack a reviewer reads first, the reveal, and storing the record.

    statebox review retail TASK [TASK ...] --blind     # what a reviewer may see before deciding
    statebox review retail TASK [TASK ...] --reveal    # the reference, alternatives, checks, rubrics
    statebox review retail --record reviews.yaml       # validate and store each record beside its task
    statebox review retail --batch 3 --blind           # the 3rd batch of 8 in listing order, ids hidden
    statebox review retail --batch 3 --reveal          # the same batch's answers (ids shown)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from statebox.cli.common import fail, open_suite
from statebox.cli.review_pack import blind_pack, reveal
from statebox.suites import Suite
from statebox.tasks import Task, TaskFileError
from statebox.tasks.review import store_records


def register(app: typer.Typer) -> None:
    app.command("review")(review)


def review(
    suite: Annotated[str, typer.Argument(help="A built-in domain, builtin, or a domain folder.", show_default=False)],
    task_ids: Annotated[
        list[str] | None, typer.Argument(help="Task ids (several at once).", show_default=False)
    ] = None,
    blind: Annotated[bool, typer.Option("--blind", help="Print what a reviewer may see first.")] = False,
    show_all: Annotated[bool, typer.Option("--reveal", help="Print the rest: reference, checks, rubrics.")] = False,
    record: Annotated[Path | None, typer.Option("--record", help="Validate and store the review record(s) in "
                                                                  "this YAML file.")] = None,
    batch: Annotated[int | None, typer.Option("--batch", min=1, help="Review the Kth batch of --size tasks in "
                                               "listing order; the blind pack then hides the task ids.")] = None,
    size: Annotated[int, typer.Option("--size", min=1, help="Tasks per --batch.")] = 8,
) -> None:
    """Blind-review tasks: --blind prints the situation and the policy, --reveal the answer, --record stores."""
    if sum([blind, show_all, record is not None]) != 1:
        fail("choose one of --blind, --reveal or --record FILE")
    s = open_suite(suite)
    if record is not None:
        try:
            written = store_records(s, record)
        except TaskFileError as e:
            fail(str(e))
        for path in written:
            print(f"recorded {path}")
        return
    if batch is not None:
        if task_ids:
            fail("name tasks or choose a --batch, not both")
        tasks = s.tasks[(batch - 1) * size : batch * size]
        if not tasks:
            fail(f"--batch {batch}: {s.name} has {len(s.tasks)} tasks, {-(-len(s.tasks) // size)} batches of {size}")
    elif not task_ids:
        fail(f"name the task(s) to review, or choose a --batch; see `statebox tasks {suite}`")
    else:
        tasks = _tasks(s, task_ids)
    sys.stdout.write(blind_pack(s, tasks, hide_ids=batch is not None) if blind else reveal(s, tasks))


def _tasks(suite: Suite, ids: list[str]) -> list[Task]:
    try:
        return [suite.task(i) for i in dict.fromkeys(ids)]
    except LookupError as e:
        fail(str(e))
