"""Suite providers: what the `statebox` command can list, open, validate and run, and how to find them.

A provider registers under the `statebox.suites` entry-point group (pyproject.toml), names its
suites, declares the command-line options it needs and checks them itself, and opens a suite as a
`TaskSet`. The command line never names a suite: it asks the providers.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from statebox.runner.taskset import Listing, TaskSet
from statebox.tools.quoting import shorten

if TYPE_CHECKING:
    from statebox.judge.shape import SuiteShape

ENTRY_POINT_GROUP = "statebox.suites"
COMMANDS = frozenset({"tasks", "validate", "run"})


class SuiteError(ValueError):
    """A suite that cannot be opened as asked; the message is one line naming the option, file or task."""


@dataclass(frozen=True)
class SuiteOption:
    """A command-line option a provider adds to `statebox tasks`, `validate` and/or `run`."""

    name: str  # the keyword the provider receives, e.g. "data"
    flag: str  # e.g. "--data"; a switch is "--fork/--no-fork"
    type: type[Any]
    help: str
    default: Any = None
    commands: frozenset[str] = COMMANDS


@dataclass(frozen=True)
class SuiteInfo:
    """One line of `statebox suites`."""

    name: str
    tasks: int | None  # None when it cannot be known without options (see `needs`)
    description: str
    needs: tuple[str, ...] = ()  # options without which the suite cannot be opened


@dataclass
class ValidationReport:
    """What `statebox validate` prints: a table, a closing line, the JSON document, and whether all passed."""

    ok: bool
    table: Listing
    summary: str
    json: dict[str, Any]
    shape: SuiteShape | None = None  # the suite's shape (judge/shape), where its provider measures one


S = TypeVar("S", bound=TaskSet)


class SuiteProvider(ABC, Generic[S]):
    """A family of suites: names them, opens them with its own options, and validates their tasks."""

    options: tuple[SuiteOption, ...] = ()

    @abstractmethod
    def names(self) -> list[str]:
        """The suite names this provider opens (cheap: no tasks are loaded)."""

    @abstractmethod
    def catalog(self) -> list[SuiteInfo]:
        """`statebox suites`: every suite with its task count where it is known without options."""

    @abstractmethod
    def open(self, name: str, options: Mapping[str, Any], patterns: list[str] | None, test_list: Path | None) -> S:
        """The suite with its tasks selected; `options` holds this provider's options by name.
        Bad input is a `SuiteError`."""

    @abstractmethod
    def validate(self, suite: S, *, concurrency: int, on_done: Callable[[], None]) -> ValidationReport:
        """Check every task of an opened suite; `on_done` is called once per task checked."""

    def opens(self, name: str) -> bool:
        """Whether this provider opens `name` though `names()` does not list it (e.g. a domain folder's path);
        asked only when no provider lists the name."""
        return False

    def run_options(self, manifest: Mapping[str, Any]) -> tuple[dict[str, Any], Path | None]:
        """The options and test list a run was made with, from its manifest, to open its suite again
        when the user gives none (e.g. `statebox show RUN TASK`); a provider without options has none."""
        return {}, None


def suite_providers() -> list[SuiteProvider[Any]]:
    """Every registered provider, in the order of their entry-point names."""
    found: list[SuiteProvider[Any]] = []
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name):
        provider = ep.load()
        found.append(provider() if isinstance(provider, type) else provider)
    return found


def provider_for(name: str, providers: list[SuiteProvider[Any]]) -> SuiteProvider[Any]:
    """The provider that lists suite `name`, else one that opens it unlisted; a SuiteError lists the suites."""
    for provider in providers:
        if name in provider.names():
            return provider
    for provider in providers:
        if provider.opens(name):
            return provider
    known = ", ".join(sorted(n for p in providers for n in p.names()))
    raise SuiteError(f"unknown suite {name!r}; available: {known} (see `statebox suites`), or a domain folder's path")


def provider_opener(options: Mapping[str, Any]) -> Callable[[str], TaskSet]:
    """Opens suites through the registered providers, each given its own of `options` (by option name)."""
    providers = suite_providers()

    def open_suite(name: str) -> TaskSet:
        if not any(name in p.names() for p in providers):
            known = ", ".join(sorted(n for p in providers for n in p.names()))
            raise LookupError(f"unknown suite {shorten(name)!r}; available: {known}")
        provider = provider_for(name, providers)
        own = {o.name for o in provider.options}
        return provider.open(name, {k: v for k, v in options.items() if k in own}, None, None)

    return open_suite
