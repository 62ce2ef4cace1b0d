"""`statebox openenv-serve`: a suite as an OpenEnv environment (needs the `statebox[openenv]` extra)."""

from __future__ import annotations

import asyncio
import sys
from typing import Annotated

import typer

from statebox.cli.common import fail, open_suite
from statebox.judge import ReferenceFailed
from statebox.llm.client import make_client
from statebox.mcp.errors import CannotListenError, InsecureBindError
from statebox.mcp.http_serving import serve_until_signalled
from statebox.mcp.proxy_auth import check_bind, resolve_token
from statebox.openenv.splits import SPLITS  # statebox's own code: no OpenEnv needed

INSTALL_HINT = "openenv-serve needs OpenEnv: pip install 'statebox[openenv]' (the openenv-core package)"


def register(app: typer.Typer) -> None:
    app.command("openenv-serve")(openenv_serve)


def openenv_serve(
    suite: str,
    host: Annotated[str, typer.Option(help="Address to bind (loopback by default; others need a token).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    max_sessions: Annotated[int, typer.Option(min=1, help="Concurrent WebSocket sessions (episodes) at most.")] = 64,
    split: Annotated[
        str | None, typer.Option(help="Serve only this split: train or test (a stable hash of the task id).")
    ] = None,
    token: Annotated[
        str | None, typer.Option(help="Bearer token for every route but the probes (or $STATEBOX_TOKEN).")
    ] = None,
    shaped: Annotated[bool, typer.Option(help="Reward the share of required changes made (labelled shaped).")] = False,
    user_model: Annotated[
        str | None, typer.Option(help="PROVIDER:MODEL of an LLM customer (default: the task's scripted customer).")
    ] = None,
    base_url: Annotated[str | None, typer.Option(help="Base URL for an openai: user model.")] = None,
) -> None:
    """Serve a built-in suite over OpenEnv: one isolated episode per WebSocket session, reward 1.0/0.0 at the end."""
    if split not in (None, *SPLITS):
        fail(f"--split {split!r}: expected train or test")
    token = resolve_token(token)
    try:
        check_bind(host, token)
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
    client = None
    if user_model is not None:
        try:
            client = make_client(user_model, base_url=base_url if user_model.startswith("openai:") else None)
        except ValueError as e:
            fail(str(e))
    source = EpisodeSource(open_suite(suite), split=split, shaped=shaped, customer_client=client)
    if not source.task_ids:
        fail(f"suite {suite!r} has no {split} tasks")
    try:
        source.prepare()
    except ReferenceFailed as e:
        fail(f"{e} — this is a task bug; run `statebox validate`")
    app = create_openenv_app(source, max_sessions=max_sessions, token=token)
    announce = lambda url: print(  # noqa: E731
        f"statebox OpenEnv server for {suite} ({len(source.task_ids)} tasks) at {url}", file=sys.stderr, flush=True
    )
    try:
        asyncio.run(serve_until_signalled(app, host, port, on_ready=announce))
    except CannotListenError as e:
        fail(str(e))
