"""The `statebox` command."""

from __future__ import annotations

import typer

from statebox.cli import catalog, demo, fake, report, run, serve

app = typer.Typer(
    name="statebox",
    help="Evaluate tool-using AI agents by the backend state they leave behind — every time, not once.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
catalog.register(app)
run.register(app)
serve.register(app)
report.register(app)
fake.register(app)
demo.register(app)


def main() -> None:
    app()
