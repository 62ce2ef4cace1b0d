"""The `statebox` command."""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperGroup

from statebox.cli import (
    catalog,
    demo,
    doctor,
    export,
    fake,
    import_run,
    offline,
    openenv_serve,
    report,
    review,
    run,
    serve,
)
from statebox.cli.common import fail
from statebox.tasks.provider import suite_providers

# click's UsageError, whichever click typer runs on (newer typers vendor their own).
UsageError: type[Exception] = typer.BadParameter.__bases__[0]


class _OneLineErrors(TyperGroup):
    """A usage error (an unknown choice, a missing option) is one line naming the option, like all bad input."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except UsageError as e:
            fail(e.format_message())  # type: ignore[attr-defined]


app = typer.Typer(
    name="statebox",
    cls=_OneLineErrors,
    help="Evaluate tool-using AI agents by the backend state they leave behind — every time, not once.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
_providers = suite_providers()  # their options join those of `tasks`, `validate` and `run`
catalog.register(app, _providers)
run.register(app, _providers)
serve.register(app, _providers)
report.register(app)
fake.register(app)
demo.register(app)
offline.register(app, _providers)
openenv_serve.register(app, _providers)
export.register(app)
review.register(app)
doctor.register(app)
import_run.register(app, _providers)


def main() -> None:
    app()
