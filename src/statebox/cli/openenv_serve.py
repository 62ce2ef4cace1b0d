"""`statebox openenv-serve`: any suite as an OpenEnv environment (needs the `statebox[openenv]` extra).

It takes the options the suite providers declare for it (e.g. ThinkingBox-Bench's `--data` and
`--server-python`), as `run` does.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass
from typing import Annotated, Any

import typer

from statebox.cli.common import fail
from statebox.cli.options import SuiteOptions, command, open_task_set
from statebox.cli.serve import MaxBodyOpt, ReadTimeoutOpt, model_client
from statebox.mcp.errors import CannotListenError, InsecureBindError
from statebox.mcp.limits import ServingLimits
from statebox.mcp.proxy_auth import check_bind, resolve_token
from statebox.openenv.splits import SPLITS  # statebox's own code: no OpenEnv needed
from statebox.runner.errors import CampaignError
from statebox.suites.provider import SuiteProvider

INSTALL_HINT = "openenv-serve needs OpenEnv: pip install 'statebox[openenv]' (the openenv-core package)"
DEFAULT_IDLE_TIMEOUT_S = 600.0  # the same as statebox.openenv.source's, without importing OpenEnv early


@dataclass(frozen=True)
class OpenEnvOptions:
    """What `statebox openenv-serve` was given (the suite's own options aside)."""

    suite: Annotated[str, typer.Argument(help="A suite (`statebox suites`) or a domain folder.", show_default=False)]
    host: Annotated[str, typer.Option(help="Address to bind (loopback by default; others need a token).")] = (
        "127.0.0.1"
    )
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000
    max_sessions: Annotated[int, typer.Option(min=1, help="Concurrent WebSocket sessions (episodes) at most.")] = 64
    split: Annotated[
        str | None, typer.Option(help="Serve only this split: train or test (a stable hash of the task id).")
    ] = None
    token: Annotated[
        str | None, typer.Option(help="Bearer token for every route but the probes (or $STATEBOX_TOKEN).")
    ] = None
    shaped: Annotated[bool, typer.Option(help="Reward the share of required changes made (labelled shaped).")] = False
    idle_timeout: Annotated[
        float,
        typer.Option(
            min=0.001,
            help="Seconds without a reset or step after which a session's episode is closed, its resources freed.",
        ),
    ] = DEFAULT_IDLE_TIMEOUT_S
    user_model: Annotated[
        str | None, typer.Option(help="PROVIDER:MODEL of an LLM customer (default: the task's scripted customer).")
    ] = None
    judge_model: Annotated[
        str | None,
        typer.Option(help="PROVIDER:MODEL judging the task's rubric questions (default: none, they are not judged)."),
    ] = None
    base_url: Annotated[str | None, typer.Option(help="Base URL for an openai: user or judge model.")] = None
    max_body_bytes: MaxBodyOpt = 1_048_576
    read_timeout: ReadTimeoutOpt = 10.0


def register(app: typer.Typer, providers: list[SuiteProvider[Any]]) -> None:
    app.command("openenv-serve")(command("openenv-serve", OpenEnvOptions, openenv_serve, providers))


def openenv_serve(opts: OpenEnvOptions, suite_options: SuiteOptions) -> None:
    """Serve a suite over OpenEnv: one isolated episode per WebSocket session, reward 1.0/0.0 at the end."""
    if opts.split not in (None, *SPLITS):
        fail(f"--split {opts.split!r}: expected train or test")
    token = resolve_token(opts.token)
    try:
        check_bind(opts.host, token)
    except InsecureBindError as e:
        fail(str(e))
    # OpenEnv imports its Gradio web UI when Gradio is importable and skips it otherwise; this server
    # never mounts it, and the import alone costs about 130 MB of every server's memory.
    sys.modules.setdefault("gradio", None)  # type: ignore[arg-type]
    try:  # OpenEnv is an optional extra, and slow to import: only once the arguments are known good
        from statebox.openenv.server import create_openenv_app
        from statebox.openenv.source import EpisodeSource
    except ImportError as e:
        fail(f"{INSTALL_HINT} ({e})")
    client, judge = model_client(opts.user_model, opts.base_url), model_client(opts.judge_model, opts.base_url)
    _, suite = open_task_set("openenv-serve", opts.suite, suite_options, None, None)
    try:
        source = EpisodeSource(
            suite, split=opts.split, shaped=opts.shaped, customer_client=client, judge_client=judge,
            idle_timeout_s=opts.idle_timeout,
        )
    except ValueError as e:
        fail(f"--shaped: {e}")
    if not source.task_ids:
        fail(f"suite {opts.suite!r} has no {opts.split} tasks")
    try:
        source.prepare()
    except CampaignError as e:
        fail(str(e))
    app = create_openenv_app(source, max_sessions=opts.max_sessions, token=token)
    announce = lambda url: print(  # noqa: E731
        f"statebox OpenEnv server for {opts.suite} ({len(source.task_ids)} tasks) at {url}", file=sys.stderr, flush=True
    )
    from statebox.mcp.http_serving import serve_until_signalled  # uvicorn loads with the server

    try:
        limits = ServingLimits(opts.max_body_bytes, opts.read_timeout)
        asyncio.run(serve_until_signalled(app, opts.host, opts.port, on_ready=announce, limits=limits))
    except CannotListenError as e:
        fail(str(e))

