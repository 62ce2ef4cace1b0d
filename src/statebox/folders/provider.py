"""Suite providers over domain folders: any folder by its path, or one folder under a package's name.

Both open a folder's domain as a built-in domain is opened, a `Suite`, so it is validated, run,
served and judged by the same code (`BuiltinSuites.validate`, world sessions).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from statebox.folders.folder import (
    DomainFolderError,
    error_text,
    failed_line,
    folder_path,
    is_folder_name,
    load_folder_suite,
)
from statebox.suites import Suite
from statebox.suites.builtin import BuiltinSuites, read_test_list
from statebox.suites.provider import SuiteError, SuiteInfo, ValidationReport
from statebox.tasks import TaskFileError
from statebox.tools.quoting import message_of


class _FolderValidation(BuiltinSuites):
    """Validation as for a built-in domain; an error raised in the folder's own code (a tool's bug) is a
    one-line SuiteError naming its file, line and task, not a traceback."""

    def validate(self, suite: Suite, *, concurrency: int, on_done: Callable[[], None]) -> ValidationReport:
        done = 0

        def counted() -> None:
            nonlocal done
            done += 1
            on_done()

        try:
            return super().validate(suite, concurrency=concurrency, on_done=counted)
        except Exception as e:
            line = failed_line(e)
            if line is None:
                raise  # statebox's own: a traceback is the report
            task = suite.tasks[done].id if done < len(suite.tasks) else "?"
            raise SuiteError(f"{line[0]} line {line[1]}: task {task!r}: {error_text(e)}") from None


class FolderPaths(_FolderValidation):
    """Every domain folder, named by its path (`./my_domain`, `/abs/path`); a suite is named by the resolved path.

    It lists none: `statebox suites` shows the registered suites, and a folder is read only when asked for.
    """

    def names(self) -> list[str]:
        return []

    def catalog(self) -> list[SuiteInfo]:
        return []

    def opens(self, name: str) -> bool:
        return is_folder_name(name)

    def open(self, name: str, options: Mapping[str, Any], patterns: list[str] | None, test_list: Path | None) -> Suite:
        return _selected(load_folder_suite, name, patterns, test_list)


class FolderSuite(_FolderValidation):
    """One domain folder as the suite `name` (by default the folder's own name), for a package to publish."""

    def __init__(self, folder: str | Path, name: str | None = None):
        self.folder = folder_path(folder)
        self.name = name or self.folder.name

    def names(self) -> list[str]:
        return [self.name]

    def catalog(self) -> list[SuiteInfo]:
        """Its line, loading the folder (its cost is its own); a folder that does not load says why."""
        try:
            suite = self._load(self.name)
        except SuiteError as e:
            return [SuiteInfo(self.name, None, f"cannot be opened: {e}")]
        return [SuiteInfo(self.name, len(suite.tasks), next(iter(suite.domains.values())).description)]

    def open(self, name: str, options: Mapping[str, Any], patterns: list[str] | None, test_list: Path | None) -> Suite:
        return _selected(self._load, name, patterns, test_list)

    def _load(self, name: str) -> Suite:
        try:
            suite = load_folder_suite(self.folder)
        except (DomainFolderError, TaskFileError) as e:
            raise SuiteError(message_of(e)) from None
        return Suite(name, suite.tasks, suite.domains)


def folder_suite(folder: str | Path, name: str | None = None) -> FolderSuite:
    """A `statebox.suites` entry point's object for a domain folder, e.g. in the package's `__init__.py`:
    `SUITE = folder_suite(Path(__file__).parent / "domain", name="acme-support")`."""
    return FolderSuite(folder, name)


def _selected(load: Callable[[str], Suite], name: str, patterns: list[str] | None, test_list: Path | None) -> Suite:
    ids = read_test_list(test_list) if test_list is not None else None
    try:
        return load(name).select(patterns, ids)
    except (DomainFolderError, TaskFileError, LookupError) as e:
        raise SuiteError(message_of(e)) from None
