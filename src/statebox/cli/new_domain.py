"""`statebox new-domain`: scaffold a working domain in a folder of the user's own."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from statebox.cli.common import fail


def register(app: typer.Typer) -> None:
    app.command("new-domain")(new_domain)


def new_domain(
    name: Annotated[str, typer.Argument(help="The domain's name: lowercase letters, digits, _.", show_default=False)],
    folder: Annotated[
        Path | None, typer.Argument(help="A new or empty folder (default: ./NAME).", show_default=False)
    ] = None,
) -> None:
    """Write a working domain into a folder: policy, seed, two tools, three tasks that validate, a README."""
    from statebox.folders.scaffold import ScaffoldError, write_scaffold

    target = folder if folder is not None else Path(name)
    try:
        written = write_scaffold(name, target)
    except (ScaffoldError, OSError) as e:
        fail(str(e))
    for path in written:
        print(path)
    shown = str(target) if target.is_absolute() or str(target).startswith(".") else f"./{target}"
    print(f"domain {name!r} in {target}: {len(written)} files; next: statebox validate {shown}")
