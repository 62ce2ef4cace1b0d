"""`statebox serve` (one attempt as an MCP server) and `statebox proxy` (many attempts over HTTP)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from statebox.cli.common import fail
from statebox.llm.client import ModelClient, make_client
from statebox.mcp import CannotListenError, InsecureBindError, run_proxy, serve_http, serve_stdio
from statebox.mcp.hosted import HostedAttempt
from statebox.runner.hosted import WorldAttemptFactory
from statebox.tasks import TaskFileError
from statebox.tools.quoting import message_of, shorten

USERS = ("scripted", "llm", "none")
UserOpt = Annotated[
    str | None,
    typer.Option(
        help="Simulated customer: scripted, llm or none (default: llm when --user-model is given, else scripted)."
    ),
]
UserModelOpt = Annotated[str | None, typer.Option(help="PROVIDER:MODEL of the LLM customer.")]
BaseUrlOpt = Annotated[str | None, typer.Option(help="Base URL for an openai: user model.")]


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
    app.command("proxy")(proxy)


def _user_client(user_model: str | None, base_url: str | None) -> ModelClient | None:
    if user_model is None:
        return None
    try:
        return make_client(user_model, base_url=base_url if user_model.startswith("openai:") else None)
    except ValueError as e:
        fail(str(e))


def serve(
    suite: str,
    task_id: str,
    http: Annotated[str | None, typer.Option("--http", help="HOST:PORT: serve over streamable HTTP at /mcp.")] = None,
    out: Annotated[
        Path | None, typer.Option(help="Where to write the effects and verdict when the attempt ends.")
    ] = None,
    user: UserOpt = None,
    user_model: UserModelOpt = None,
    base_url: BaseUrlOpt = None,
) -> None:
    """Serve one isolated attempt of a task as an MCP server (stdio by default)."""
    kind = user or ("llm" if user_model else "scripted")
    if kind not in USERS:
        fail(f"--user {shorten(kind)!r}: choose one of {', '.join(USERS)}")
    factory = WorldAttemptFactory(_user_client(user_model, base_url))
    try:
        attempt = asyncio.run(factory(suite, task_id, None if kind == "none" else kind))
    except (LookupError, ValueError, TaskFileError) as e:
        fail(message_of(e))

    def on_end(a: HostedAttempt) -> None:
        if out is not None:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(a.result(), indent=2, default=str))

    if http is None:
        asyncio.run(serve_stdio(attempt, on_end=on_end))
        return
    host, _, port = http.rpartition(":")
    if not host or not port.isdigit():
        fail(f"--http {http!r}: expected HOST:PORT, e.g. 127.0.0.1:8000")
    announce = lambda url: print(f"serving {suite}/{task_id} at {url}", file=sys.stderr)  # noqa: E731
    try:
        asyncio.run(serve_http(attempt, host, int(port), on_end=on_end, on_ready=announce))
    except CannotListenError as e:
        fail(str(e))


def proxy(
    host: Annotated[str, typer.Option(help="Address to bind (loopback by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 7111,
    token: Annotated[str | None, typer.Option(help="Bearer token for the operator API (or $STATEBOX_TOKEN).")] = None,
    idle_timeout: Annotated[float, typer.Option(help="Seconds before an idle attempt is reclaimed.")] = 900.0,
    user_model: UserModelOpt = None,
    base_url: BaseUrlOpt = None,
) -> None:
    """Serve many isolated attempts behind one HTTP server; each attempt has its own MCP URL."""
    factory = WorldAttemptFactory(_user_client(user_model, base_url))
    try:
        asyncio.run(
            run_proxy(
                factory,
                host,
                port,
                token,
                idle_timeout,
                on_ready=lambda url: print(f"statebox proxy at {url}", file=sys.stderr),
            )
        )
    except (InsecureBindError, CannotListenError) as e:
        fail(str(e))
