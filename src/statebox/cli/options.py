"""Commands whose options are a dataclass plus the options every suite provider declares.

typer reads a command's options from its function signature; here the signature is made from an
options dataclass (each field `Annotated` with its `typer.Option`, so typer checks choices and
ranges) and from the providers' `SuiteOption`s for that command. The handler gets the dataclass
and the provider options by name, and `open_task_set` hands each provider only its own.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar, get_type_hints

import typer

from statebox.cli.common import fail
from statebox.runner.taskset import TaskSet
from statebox.suites.provider import SuiteError, SuiteOption, SuiteProvider, provider_for, suite_providers

T = TypeVar("T")
SuiteOptions = dict[str, Any]  # provider options by name, as given on the command line


def command(
    name: str, options_type: type[T], handler: Callable[[T, SuiteOptions], None], providers: list[SuiteProvider[Any]]
) -> Callable[..., None]:
    """A typer command function taking the fields of `options_type` and the providers' options for `name`."""
    hints = get_type_hints(options_type, include_extras=True)
    core = [_parameter(f.name, hints[f.name], f.default) for f in dataclasses.fields(options_type)]  # type: ignore[arg-type]
    own = {p.name for p in core}
    extra: dict[str, inspect.Parameter] = {}
    for option in (o for p in providers for o in p.options if name in o.commands):
        if option.name in own:
            raise TypeError(f"suite option {option.flag} clashes with an option of `statebox {name}`")
        extra.setdefault(option.name, _parameter(option.name, _annotation(option), option.default))

    def invoke(**given: Any) -> None:
        suite_options = {key: given.pop(key) for key in extra}
        handler(options_type(**given), suite_options)

    parameters = [*core, *extra.values()]
    invoke.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    invoke.__annotations__ = {p.name: p.annotation for p in parameters}
    invoke.__doc__ = handler.__doc__
    invoke.__name__ = name
    return invoke


def open_task_set(
    command_name: str,
    suite: str,
    suite_options: SuiteOptions,
    patterns: list[str] | None,
    test_list: Path | None,
) -> tuple[SuiteProvider[Any], TaskSet]:
    """The suite's provider and the suite with its tasks selected; bad input is a one-line error."""
    providers = suite_providers()
    try:
        provider = provider_for(suite, providers)
        _refuse_foreign_options(command_name, provider, providers, suite_options, suite)
        own = {o.name for o in provider.options}
        chosen = provider.open(suite, {k: v for k, v in suite_options.items() if k in own}, patterns, test_list)
    except SuiteError as e:
        fail(str(e))
    if not chosen.tasks:
        pats = ", ".join(repr(p) for p in patterns or []) or "(none)"
        fail(f"no task of suite {chosen.name!r} matches --tasks {pats}; see `statebox tasks {chosen.name}`")
    return provider, chosen


def _refuse_foreign_options(
    command_name: str,
    provider: SuiteProvider[Any],
    providers: list[SuiteProvider[Any]],
    given: SuiteOptions,
    suite: str,
) -> None:
    """An option of another provider, set to other than its default, is a mistake worth saying."""
    own = {o.name for o in provider.options}
    for other in providers:
        for option in other.options:
            if command_name in option.commands and option.name not in own and given.get(option.name) != option.default:
                # every suite that takes it: several providers may declare one option (--data)
                owners = ", ".join(sorted(n for p in providers if option.name in {o.name for o in p.options}
                                          for n in p.names()))  # fmt: skip
                raise SuiteError(f"{_flag(option, given.get(option.name))} is only for {owners}; not for {suite!r}")


def _flag(option: SuiteOption, value: Any) -> str:
    on, _, off = option.flag.partition("/")
    return off if off and value is False else on


def _annotation(option: SuiteOption) -> Any:
    kind = option.type if option.type is bool or option.default is not None else option.type | None
    return Annotated[kind, typer.Option(option.flag, help=option.help, show_default=option.type is bool)]


def _parameter(name: str, annotation: Any, default: Any) -> inspect.Parameter:
    value = inspect.Parameter.empty if default is dataclasses.MISSING else default
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=value, annotation=annotation)
