"""ThinkingBox-Bench as a statebox suite: a checkout's supported tasks (custom-check ones among
them, named as such), the ones left out, and how their attempts run (a `TbSource`)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from statebox.compat.thinkingbox.loader import TbCheckout, Unsupported
from statebox.compat.thinkingbox.models import TbTask
from statebox.compat.thinkingbox.options import TbRunOptions
from statebox.compat.thinkingbox.task import TbBenchTask, bench_task
from statebox.runner.taskset import Listing, Note, TaskSet
from statebox.tasks import Task

if TYPE_CHECKING:
    from statebox.compat.thinkingbox.source import TbSource

SUITE_NAME = "thinkingbox-bench"


@dataclass
class TbSuite(TaskSet):
    """The supported tasks of a test list of one checkout, plus how their attempts run."""

    checkout: TbCheckout
    tasks: list[Task]  # the selected tasks, in test-list order
    bench_tasks: dict[str, TbBenchTask]  # every supported task of the test list, by id
    unsupported: list[Unsupported] = field(default_factory=list)
    test_list: Path | None = None
    options: TbRunOptions = field(default_factory=TbRunOptions)
    rubrics_on: Literal["conversation", "final_reply"] = "final_reply"  # the benchmark's rule, for comparable scores
    name: str = SUITE_NAME
    skipped: list[TbTask] = field(default_factory=list)  # tagged `skip`: left out, as the benchmark's loader does
    list_skipped: bool = False  # `statebox tasks --all`: their rows too

    def with_tasks(self, tasks: list[Task]) -> TbSuite:
        return replace(self, tasks=tasks)

    def with_options(self, options: TbRunOptions) -> TbSuite:
        return replace(self, options=options)

    def bench(self, task_id: str) -> TbBenchTask:
        """The task with what its attempts need of the checkout (its parsed test function, its servers)."""
        try:
            return self.bench_tasks[task_id]
        except KeyError:
            raise LookupError(f"suite {self.name!r} has no task {task_id!r}") from None

    def attempt_source(self, tools_via: str = "memory") -> TbSource:
        """Its own tool servers, over stdio (`tools_via` is for world-backed tools)."""
        from statebox.compat.thinkingbox.source import TbSource  # the servers' side, loaded when attempts run

        return TbSource(self)

    def listing(self) -> Listing:
        title = f"{self.name}: {len(self.tasks)} tasks"
        custom = self.custom_check_ids()
        if custom:
            title += f" ({len(custom)} custom-check)"
        if self.unsupported:
            title += f", {len(self.unsupported)} unsupported"
        if self.skipped:
            title += f", {len(self.skipped)} skipped"
        columns = ("id", "domain", "scenario", "check", "calls", "rubrics", "turns")
        table = Listing(title, columns, notes=self.unsupported_notes())
        for task in self.tasks:
            bench = self.bench(task.id)
            counts = (len(task.reference), len(task.rubrics), task.limits.max_turns)
            table.rows.append((task.id, task.domain, bench.tb.scenario, bench.check_kind, *counts))
        for tb in self.skipped if self.list_skipped else ():
            table.rows.append((tb.id, tb.domain, tb.scenario, "skipped", None, None, tb.max_user_sim_turns))
        if not self.list_skipped:
            table.notes += [Note("skipped", f"{tb.id}: tagged skip (--all lists it)") for tb in self.skipped]
        return table

    def listing_json(self) -> dict[str, Any]:
        listing = {**super().listing_json(), "unsupported": self.unsupported_json()}
        listing["custom_check"] = self.custom_check_ids()
        listing["skipped"] = [tb.id for tb in self.skipped]
        return listing

    def custom_check_ids(self) -> list[str]:
        """The selected tasks graded by their own test function's check (run sandboxed)."""
        return [task.id for task in self.tasks if self.bench(task.id).custom_check is not None]

    def unsupported_notes(self) -> list[Note]:
        return [Note("unsupported", f"{task_id}: {reason}") for task_id, reason in self.unsupported]

    def unsupported_json(self) -> list[dict[str, str]]:
        return [{"id": task_id, "reason": reason} for task_id, reason in self.unsupported]

    def warnings(self) -> list[str]:
        said = []
        if self.unsupported:
            shown = ", ".join(task_id for task_id, _ in self.unsupported[:5])
            more = f" and {len(self.unsupported) - 5} more" if len(self.unsupported) > 5 else ""
            said.append(f"{len(self.unsupported)} unsupported task(s) left out: {shown}{more} "
                        f"(see `statebox tasks {self.name} --data ...`)")  # fmt: skip
        if self.skipped:
            shown = ", ".join(tb.id for tb in self.skipped[:5]) + (" ..." if len(self.skipped) > 5 else "")
            said.append(f"{len(self.skipped)} task(s) tagged skip left out, as the benchmark's loader does: {shown}")
        return said


def load_tb_suite(
    data: str | Path, test_list: str | Path | None = None, options: TbRunOptions | None = None
) -> TbSuite:
    """The suite of a checkout's test list (default: the canonical one); test files are only parsed."""
    checkout = TbCheckout(data)
    parsed, unsupported, skipped = checkout.read_list(test_list)
    shared: dict[str, str] = {}
    bench = {tb.id: bench_task(checkout, tb, shared) for tb in parsed}
    path = Path(test_list).resolve() if test_list is not None else None
    return TbSuite(checkout, list(bench.values()), bench, unsupported, path, options or TbRunOptions(),
                   skipped=skipped)  # fmt: skip
