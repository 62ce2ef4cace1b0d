"""click's UsageError, whichever click typer runs on: the one place statebox reaches past typer's public API.

Newer typers vendor click (`typer._click`), older ones import click itself; typer exports neither's
UsageError, only its subclass `BadParameter`. The class is found on `BadParameter`'s MRO by name and
checked when this module is imported, so a typer that changes it stops the command with one line
naming the typer version, not with usage errors that silently print boxes again.
"""

from __future__ import annotations

import typer


def find_usage_error(bad_parameter: type[Exception] = typer.BadParameter) -> type[Exception]:
    """The `UsageError` class `bad_parameter` derives from (SystemExit with one line when there is none)."""
    for cls in bad_parameter.__mro__:
        named = cls.__name__ == "UsageError" and issubclass(cls, Exception)
        if named and callable(getattr(cls, "format_message", None)):
            return cls
    raise SystemExit(
        f"error: statebox needs click's UsageError above typer.BadParameter; typer {typer.__version__} has none "
        "(install a typer statebox supports: pip install 'typer>=0.12')"
    )


UsageError: type[Exception] = find_usage_error()
