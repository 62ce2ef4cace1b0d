"""`statebox serve` (one attempt as an MCP server) and `statebox proxy` (many attempts over HTTP).

Both host attempts of any suite on the suite's own backend, and take the options the suite
providers declare for them (e.g. ThinkingBox-Bench's `--data` and `--server-python`), as `run` does.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from statebox.cli.common import fail
from statebox.cli.options import SuiteOptions, command, open_task_set
from statebox.llm.client import ModelClient, make_client
from statebox.mcp.errors import CannotListenError, InsecureBindError, ToolServerError
from statebox.mcp.hosted import HostedAttempt, attempt_result
from statebox.mcp.proxy_auth import is_loopback
from statebox.runner.taskset import TaskSet
from statebox.suites.provider import SuiteError, SuiteProvider, suite_providers
from statebox.tasks import TaskFileError
from statebox.tools.quoting import message_of, shorten

if TYPE_CHECKING:  # the serving stack (the MCP SDK, the runner) loads when a command runs, not with the CLI
    from statebox.runner.hosted_suite import HostedAttemptFactory, SuiteOpener

USERS = ("scripted", "llm", "none")
UserOpt = Annotated[
    str | None,
    typer.Option(
        help="Simulated customer: scripted, llm or none (default: llm when --user-model is given, else scripted)."
    ),
]
UserModelOpt = Annotated[str | None, typer.Option(help="PROVIDER:MODEL of the LLM customer.")]
BaseUrlOpt = Annotated[str | None, typer.Option(help="Base URL for an openai: user model.")]
# The HTTP servers' limits (statebox.mcp.limits), shared by `proxy` and `openenv-serve`.
MaxBodyOpt = Annotated[
    int, typer.Option(min=1, help="Request bodies and WebSocket messages over this many bytes are refused (413).")
]
JudgeModelOpt = Annotated[
    str | None,
    typer.Option(help="Judge model for the task's rubric questions (PROVIDER:MODEL); without one they are not judged."),
]
ReadTimeoutOpt = Annotated[
    float,
    typer.Option(min=0.001, help="Seconds a request's head, then its body, may take to arrive (else 408, closed)."),
]


@dataclass(frozen=True)
class ServeOptions:
    """What `statebox serve` was given (the suite's own options aside)."""

    suite: Annotated[str, typer.Argument(help="A suite (`statebox suites`) or a domain folder.", show_default=False)]
    task_id: Annotated[str, typer.Argument(help="The task to serve an attempt of.", show_default=False)]
    http: Annotated[str | None, typer.Option("--http", help="HOST:PORT: serve over streamable HTTP at /mcp.")] = None
    out: Annotated[
        Path | None,
        typer.Option(help="Where to write the effects and verdict when the attempt ends: when stdin closes, with "
                     "--http when the agent's MCP session closes, or at Ctrl-C/SIGTERM if that comes first."),
    ] = None
    user: UserOpt = None
    user_model: UserModelOpt = None
    judge_model: JudgeModelOpt = None
    base_url: BaseUrlOpt = None


@dataclass(frozen=True)
class ProxyOptions:
    """What `statebox proxy` was given (the suites' own options aside)."""

    host: Annotated[str, typer.Option(help="Address to bind (loopback by default).")] = "127.0.0.1"
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 7111
    token: Annotated[str | None, typer.Option(help="Bearer token for the operator API (or $STATEBOX_TOKEN).")] = None
    idle_timeout: Annotated[
        float, typer.Option(min=0.001, help="Seconds before an idle attempt is closed and its resources freed.")
    ] = 900.0
    user_model: UserModelOpt = None
    judge_model: JudgeModelOpt = None
    base_url: BaseUrlOpt = None
    max_attempts: Annotated[
        int, typer.Option(min=1, help="Live attempts at most; creating one more is refused (429) until one ends.")
    ] = 256
    max_body_bytes: MaxBodyOpt = 1_048_576
    read_timeout: ReadTimeoutOpt = 10.0


def register(app: typer.Typer, providers: list[SuiteProvider[Any]]) -> None:
    app.command("serve")(command("serve", ServeOptions, serve, providers))
    app.command("proxy")(command("proxy", ProxyOptions, proxy, providers))


def model_client(spec: str | None, base_url: str | None) -> ModelClient | None:
    """The customer's or the judge's model (`--base-url` applies to `openai:` specs), or a one-line error."""
    if spec is None:
        return None
    try:
        return make_client(spec, base_url=base_url if spec.startswith("openai:") else None)
    except ValueError as e:
        fail(str(e))


def serve(opts: ServeOptions, suite_options: SuiteOptions) -> None:
    """Serve one isolated attempt of a task as an MCP server (stdio by default)."""
    kind = opts.user or ("llm" if opts.user_model else "scripted")
    if kind not in USERS:
        fail(f"--user {shorten(kind)!r}: choose one of {', '.join(USERS)}")
    address: tuple[str, int] | None = None
    if opts.http is not None:
        host, _, port = opts.http.rpartition(":")
        if not host or not port.isdigit():
            fail(f"--http {opts.http!r}: expected HOST:PORT, e.g. 127.0.0.1:8000")
        if not is_loopback(host):  # one attempt, no token: whoever reaches the port plays it
            fail(f"--http {opts.http!r}: serve has no token, so it listens on this machine only (127.0.0.1 or ::1); "
                 "to serve attempts beyond it, use `statebox proxy --token`")
        address = host, int(port)
    _, suite = open_task_set("serve", opts.suite, suite_options, None, None)
    try:
        suite.task(opts.task_id)
    except LookupError as e:
        fail(message_of(e))
    from statebox.runner.hosted_suite import HostedAttemptFactory

    only = _only(suite.select(ids=[opts.task_id]))  # the served task alone: only its servers' templates start
    factory = HostedAttemptFactory(
        only, model_client(opts.user_model, opts.base_url), model_client(opts.judge_model, opts.base_url)
    )
    problem = asyncio.run(_serve(factory, opts, None if kind == "none" else kind, address))
    if problem is not None:
        fail(problem)


async def _serve(
    factory: HostedAttemptFactory, opts: ServeOptions, user: str | None, address: tuple[str, int] | None
) -> str | None:
    """Open the attempt, serve it until it ends, close everything; a one-line problem, or None."""
    from statebox.mcp import serve_http, serve_stdio

    try:
        try:
            attempt = await factory(opts.suite, opts.task_id, user)
        except (LookupError, ValueError, TaskFileError, ToolServerError) as e:
            return message_of(e)

        async def on_end(a: HostedAttempt) -> None:
            if opts.out is not None:
                result = await attempt_result(a)
                _write_whole(opts.out, json.dumps(result, indent=2, default=str))
            if address is not None:  # over stdio the process ends with the attempt; a server says so
                print(_ended_line(opts.out), file=sys.stderr, flush=True)

        if address is None:
            await serve_stdio(attempt, on_end=on_end)
            return None
        announce = lambda url: print(f"serving {opts.suite}/{opts.task_id} at {url}; the attempt ends when the "  # noqa: E731
                                     "agent's MCP session closes (or at Ctrl-C)", file=sys.stderr, flush=True)
        try:
            await serve_http(attempt, *address, on_end=on_end, on_ready=announce)
        except CannotListenError as e:
            await attempt.close()
            return str(e)
        return None
    finally:
        await factory.aclose()


def _write_whole(path: Path, text: str) -> None:
    """Write `text` so that a reader polling for `path` never sees it half written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(text)
    os.replace(partial, path)


def _ended_line(out: Path | None) -> str:
    kept = f"its effects and verdict are in {out}" if out is not None else "without --out its verdict was not kept"
    return f"attempt ended: {kept}"


def proxy(opts: ProxyOptions, suite_options: SuiteOptions) -> None:
    """Serve many isolated attempts of any suite behind one HTTP server; each attempt has its own MCP URL."""
    from statebox.mcp import run_proxy
    from statebox.mcp.limits import ServingLimits
    from statebox.runner.hosted_suite import HostedAttemptFactory
    from statebox.suites.provider import provider_opener

    opened = _suites_with_options(suite_options)
    factory = HostedAttemptFactory(
        _preopened(opened, provider_opener(suite_options)),
        model_client(opts.user_model, opts.base_url),
        model_client(opts.judge_model, opts.base_url),
    )
    try:
        asyncio.run(
            run_proxy(
                factory,
                opts.host,
                opts.port,
                opts.token,
                opts.idle_timeout,
                on_ready=lambda url: print(f"statebox proxy at {url}", file=sys.stderr),
                limits=ServingLimits(opts.max_body_bytes, opts.read_timeout),
                max_attempts=opts.max_attempts,
            )
        )
    except (InsecureBindError, CannotListenError) as e:
        fail(str(e))


def _suites_with_options(suite_options: SuiteOptions) -> dict[str, TaskSet]:
    """The suites whose provider was given options, opened now so that bad options fail before serving. An
    option several providers declare (`--data`) may be meant for one of them: a provider whose suites do not
    open with it is left out when another provider's do and every option given to it is also that one's."""
    opened: dict[str, TaskSet] = {}
    failed: list[tuple[set[str], str]] = []
    accepted: set[str] = set()
    for provider in suite_providers():
        given = {o.name for o in provider.options if "proxy" in o.commands and suite_options.get(o.name) != o.default}
        if not given:
            continue
        own = {o.name for o in provider.options}
        try:
            chosen = {n: provider.open(n, {k: v for k, v in suite_options.items() if k in own}, None, None)
                      for n in provider.names()}  # fmt: skip
        except SuiteError as e:
            failed.append((given, str(e)))
            continue
        opened.update(chosen)
        accepted |= given
    for given, message in failed:
        if not given <= accepted:
            fail(message)
    return opened


def _only(suite: TaskSet) -> SuiteOpener:
    def open_suite(name: str) -> TaskSet:
        if name != suite.name:
            raise LookupError(f"this server serves suite {suite.name!r}, not {shorten(name)!r}")
        return suite

    return open_suite


def _preopened(opened: dict[str, TaskSet], otherwise: SuiteOpener) -> SuiteOpener:
    return lambda name: opened[name] if name in opened else otherwise(name)
