"""The `statebox` command.

Each command's module is imported when that command runs, not before: `statebox --help` lists the
commands from the table below (a test checks it says what each command's own help says), so asking
for help, listing suites or opening one suite does not import the runner, the judge, the report and
the servers. A module's `register(app[, providers])` adds its commands; the suite providers (whose
options join `run`, `tasks`, `validate` ...) are loaded only for the modules that take them.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperCommand, TyperGroup

from statebox.cli.usage_error import UsageError

# name -> (the module under statebox.cli that registers it, the first paragraph of its help)
COMMANDS: dict[str, tuple[str, str]] = {
    "suites": ("catalog", (
        "List the available suites, with their task counts."
    )),
    "tasks": ("catalog", (
        "List a suite's tasks; --json dumps full definitions, reference solutions included."
    )),
    "validate": ("catalog", (
        "Check every task: the reference passes, doing nothing fails, every write is needed, mutants are "
        "caught."
    )),
    "run": ("run", (
        "Run a campaign. Each finished attempt is appended to OUT/trials.jsonl as it ends."
    )),
    "serve": ("serve", (
        "Serve one isolated attempt of a task as an MCP server (stdio by default)."
    )),
    "proxy": ("serve", (
        "Serve many isolated attempts of any suite behind one HTTP server; each attempt has its own MCP "
        "URL."
    )),
    "report": ("report", (
        "Report pass@1, pass@k, pass^k, observed k/k, cost and failure signatures per model and domain."
    )),
    "compare": ("report", (
        "Compare two runs on their paired tasks: pass@1 difference, its interval, the tasks changed "
        "beyond chance."
    )),
    "fake-model": ("fake", (
        "Serve a scripted model that plays the suite's tasks (recognised from the opening message only)."
    )),
    "demo": ("demo", (
        "Run the reference agent and a flaky fake model (scripted customer) on a built-in suite, then "
        "report both."
    )),
    "regrade": ("offline", (
        "Judge every stored attempt again with today's judge and tasks, into a new run directory (no "
        "model calls)."
    )),
    "verify": ("offline", (
        "Check that each run is canonical, hashes as its suite does today, is unaltered, and its numbers "
        "recompute."
    )),
    "show": ("offline", (
        "One attempt: the conversation, the verdict and its discrepancies, what changed against what was "
        "required."
    )),
    "play": ("offline", (
        "Play one side of a task in the terminal (the agent, with tools; or the customer); then see the "
        "verdict."
    )),
    "openenv-serve": ("openenv_serve", (
        "Serve a suite over OpenEnv: one isolated episode per WebSocket session, reward 1.0/0.0 at the "
        "end."
    )),
    "export": ("export", (
        "Write one line per finished attempt (messages ending on the agent's last turn, tools, reward, verdict, "
        "task id, domain, model and repeat), or one line per preference pair."
    )),
    "review": ("review", (
        "Blind-review tasks: --blind prints the situation and the policy, --reveal the answer, --record "
        "stores."
    )),
    "doctor": ("doctor", (
        "Say how sessions are restored here and why, the SQLite on each side, the sandbox, Python and "
        "extras."
    )),
    "new-domain": ("new_domain", (
        "Write a working domain into a folder: policy, seed, two tools, three tasks that validate, a README."
    )),
    "import": ("import_run", (
        "Replay every recorded attempt on fresh state, judge it as `statebox run` does, write a run "
        "directory."
    )),
}


class _Commands(TyperGroup):
    """Commands imported on first use; usage errors (a bad option anywhere) are one line naming it."""

    _listing = False  # while the help lists the commands: their table's lines, nothing imported

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in COMMANDS:
            return None
        if self._listing and cmd_name not in self.commands:
            return TyperCommand(cmd_name, help=COMMANDS[cmd_name][1] or None)
        if cmd_name not in self.commands:
            for name, command in module_commands(COMMANDS[cmd_name][0]).items():
                self.commands.setdefault(name, command)
        return self.commands.get(cmd_name)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except UsageError as e:
            _fail_in_one_line(e)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        try:
            return super().resolve_command(ctx, args)
        except UsageError as e:
            close = difflib.get_close_matches(args[0], list(COMMANDS)) if args else []
            if close and "Did you mean" not in e.format_message():  # type: ignore[attr-defined]
                e.message = f"{e.message.rstrip('.')}. Did you mean {', '.join(repr(c) for c in close)}?"  # type: ignore[attr-defined]
            raise

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except UsageError as e:
            _fail_in_one_line(e)


def _fail_in_one_line(e: Exception) -> NoReturn:
    from statebox.cli.common import fail  # (imports the task model: not needed to print help)

    fail(e.format_message())  # type: ignore[attr-defined]


def module_commands(module: str) -> dict[str, Any]:
    """The click commands `statebox.cli.<module>` registers, by name."""
    mod = importlib.import_module(f"statebox.cli.{module}")
    sub = typer.Typer(pretty_exceptions_enable=False)
    if len(inspect.signature(mod.register).parameters) == 2:
        from statebox.suites.provider import suite_providers

        mod.register(sub, suite_providers())  # their options join the command's
    else:
        mod.register(sub)
    group = typer.main.get_group(sub)
    return dict(group.commands)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            print(f"statebox {version('statebox')}")
        except PackageNotFoundError:
            print("statebox (not installed: no version)")
        raise typer.Exit()


app = typer.Typer(
    name="statebox",
    cls=_Commands,
    help="Evaluate tool-using AI agents by the backend state they leave behind — every time, not once.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root(
    show_version: Annotated[
        bool, typer.Option("--version", is_eager=True, callback=_version, help="Print statebox's version and exit.")
    ] = False,
) -> None:
    """Evaluate tool-using AI agents by the backend state they leave behind — every time, not once."""


def main() -> None:
    app()
