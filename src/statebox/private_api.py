"""Other packages' private names that statebox relies on, each checked once where it is wrapped.

A package may rename what it never promised to keep. Each use of such a name lives in one wrapper,
which calls `require` when it starts (a module imported, a server or client made): a name gone
stops statebox with one line naming the package and its version, never a feature that quietly
stops working. Imports nothing of statebox.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from importlib import metadata


class PrivateApiChanged(SystemExit):
    """An installed package lacks a private name statebox relies on; the message is one line.

    A `SystemExit`, so that uncaught it ends the process with that line and no traceback.
    """

    def __str__(self) -> str:
        return str(self.code)


def exists(value: object) -> bool:
    """For `require(present=...)`: any value will do (an attribute that may be None)."""
    return True


def installed_version(distribution: str) -> str:
    """The installed version of `distribution`, or "(not installed)"."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "(not installed)"


def require(
    owner: object,
    names: Iterable[str],
    *,
    distribution: str,
    needed_by: str,
    present: Callable[[object], bool] = callable,
) -> None:
    """Raise PrivateApiChanged unless `owner` has every name in `names` and each passes `present`.

    `owner` is a class or an instance (attributes made in `__init__` exist only on instances);
    `needed_by` says which statebox module relies on the names.
    """
    missing = [name for name in names if not hasattr(owner, name) or not present(getattr(owner, name))]
    if missing:
        what = owner if isinstance(owner, type) else type(owner)
        raise PrivateApiChanged(
            f"error: {needed_by} needs {what.__module__}.{what.__qualname__}.{'/'.join(missing)}, which "
            f"{distribution} {installed_version(distribution)} does not have (install a {distribution} "
            "version statebox supports: see pyproject.toml)"
        )
