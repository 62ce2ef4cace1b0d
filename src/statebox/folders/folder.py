"""A domain kept in a folder of its own (the user's repository), loaded by its path.

The folder holds `domain.py`, which defines `DOMAIN` (usually with `statebox.kit.build_domain`),
beside its own modules (tools, seed) and its `tasks/`. It is imported as a package under a name
made from its resolved path, so two folders that both have a `tools.py` never meet in
`sys.modules`, and nothing needs installing. A folder that cannot be loaded is a `DomainFolderError`
whose message is one line naming the folder and the missing file or the failing line.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import sys
import traceback
import types
from pathlib import Path

from statebox.suites.builtin_suite import Suite, load_suite
from statebox.tasks.domain import Domain
from statebox.tasks.loader import TaskFileError

DOMAIN_FILE = "domain.py"
PACKAGE_PREFIX = "statebox_folder_"


class DomainFolderError(ValueError):
    """A folder that is not a loadable domain; the message is one line naming the folder and the file."""


def is_folder_name(name: str) -> bool:
    """Whether a suite argument names a folder: it has a path separator, or is an existing directory."""
    return "/" in name or os.sep in name or name in (".", "..") or Path(name).expanduser().is_dir()


def folder_path(name: str | Path) -> Path:
    """The folder a suite argument names, absolute and resolved (the suite's name in a run's manifest)."""
    return Path(name).expanduser().resolve()


def package_name(folder: Path) -> str:
    """The module name a folder's package is imported under: unique per resolved path."""
    return PACKAGE_PREFIX + hashlib.sha256(str(folder).encode()).hexdigest()[:16]


def load_folder_domain(folder: Path) -> Domain:
    """The `DOMAIN` that `folder/domain.py` defines, imported once per folder and process."""
    folder = folder_path(folder)
    if not folder.is_dir():
        raise DomainFolderError(f"{folder}: no such folder")
    if not (folder / DOMAIN_FILE).is_file():
        raise DomainFolderError(
            f"{folder}: not a domain folder: no {DOMAIN_FILE} (`statebox new-domain NAME DIR` writes one)"
        )
    pkg = package_name(folder)
    module = sys.modules.get(f"{pkg}.domain") or _import(folder, pkg)
    domain = getattr(module, "DOMAIN", None)
    if not isinstance(domain, Domain):
        raise DomainFolderError(f"{folder / DOMAIN_FILE}: defines no DOMAIN (a Domain, e.g. from build_domain)")
    return domain


def load_folder_suite(folder: str | Path) -> Suite:
    """The folder's domain as a suite named by the folder's resolved path, every task loaded."""
    path = folder_path(folder)
    domain = load_folder_domain(path)
    try:
        suite = load_suite(domain.name, {domain.name: domain})
    except LookupError as e:
        raise DomainFolderError(f"{path}: {e}") from None
    return Suite(str(path), suite.tasks, suite.domains)


def _import(folder: Path, pkg: str) -> types.ModuleType:
    """Import `folder/domain.py` as `<pkg>.domain`; on failure leave none of the folder's modules behind."""
    package = types.ModuleType(pkg, f"The domain folder {folder}")
    package.__path__ = [str(folder)]
    sys.modules[pkg] = package
    try:
        return importlib.import_module(f"{pkg}.domain")
    except TaskFileError:
        _forget(pkg)
        raise
    except Exception as e:  # the user's own code: any error it raises is reported in one line
        _forget(pkg)
        raise DomainFolderError(f"{folder / DOMAIN_FILE}: cannot load the domain: {_where(e, folder)}") from None


def _forget(pkg: str) -> None:
    for name in [n for n in sys.modules if n == pkg or n.startswith(pkg + ".")]:
        del sys.modules[name]


def _where(error: Exception, folder: Path) -> str:
    """The error, and the last line of the folder's own code it passed through."""
    text = error_text(error)
    if isinstance(error, SyntaxError) and error.filename and error.lineno:
        return f"{text} ({Path(error.filename).name} line {error.lineno})"
    line = failed_line(error, folder)
    return f"{text} ({line[0].relative_to(folder)} line {line[1]})" if line else text


def error_text(error: BaseException) -> str:
    """`Type: message`, on one line."""
    return (f"{type(error).__name__}: {error}".splitlines() or [type(error).__name__])[0]


def failed_line(error: BaseException, folder: Path | None = None) -> tuple[Path, int] | None:
    """The file and line of a domain folder's own code (`folder`'s, or any loaded one's) the error was last
    raised through; None if it never was (an error of statebox's own)."""
    folders = [folder_path(folder)] if folder is not None else _loaded_folders()
    frames = [f for f in traceback.extract_tb(error.__traceback__) if _own(Path(f.filename), folders)]
    return (Path(frames[-1].filename), frames[-1].lineno or 0) if frames else None


def _own(file: Path, folders: list[Path]) -> bool:
    """A file of a domain folder, not of statebox or an installed package (a folder may hold a virtualenv)."""
    if file.is_relative_to(Path(__file__).parents[1]) or "site-packages" in file.parts:
        return False
    return any(file.is_relative_to(d) for d in folders)


def domain_code_error(error: BaseException) -> str | None:
    """One line for an error raised in a loaded domain folder's code (`<file> line N: Type: message`), else None."""
    line = failed_line(error)
    return f"{line[0]} line {line[1]}: {error_text(error)}" if line else None


def _loaded_folders() -> list[Path]:
    return [Path(m.__path__[0]) for name, m in list(sys.modules.items())
            if name.startswith(PACKAGE_PREFIX) and "." not in name and getattr(m, "__path__", None)]  # fmt: skip
