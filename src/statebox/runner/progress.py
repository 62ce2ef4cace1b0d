"""A progress bar with pass / fail / error counts and an ETA."""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn


class CampaignProgress:
    def __init__(self, total: int, *, enabled: bool = True) -> None:
        self.counts = {"pass": 0, "fail": 0, "error": 0}
        self._bar = Progress(
            TextColumn("[bold]attempts"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn(
                "[green]{task.fields[passed]} pass[/] [red]{task.fields[failed]} fail[/] "
                "[yellow]{task.fields[errors]} error[/]"
            ),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            disable=not enabled,
        )
        self._job = self._bar.add_task("run", total=total, passed=0, failed=0, errors=0)

    def __enter__(self) -> CampaignProgress:
        self._bar.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._bar.stop()

    def advance(self, outcome: str, detail: str = "") -> None:
        self.counts[outcome] += 1
        self._bar.update(
            self._job, advance=1, passed=self.counts["pass"], failed=self.counts["fail"], errors=self.counts["error"]
        )
