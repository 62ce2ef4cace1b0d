"""`statebox fake-model`: a scripted model endpoint (any provider's wire format) for tests and demos."""

from __future__ import annotations

import sys
from typing import Annotated, cast

import typer

from statebox.cli.common import fail, open_suite
from statebox.fakemodel import MODES, Mode
from statebox.fakemodel.wire import APIS, Api


def register(app: typer.Typer) -> None:
    app.command("fake-model")(fake_model)


def fake_model(
    suite: str,
    mode: Annotated[str, typer.Option(help=f"One of: {', '.join(MODES)}.")] = "reference",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8765,
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
    error_rate: Annotated[float, typer.Option(help="flaky: probability that an attempt makes a mistake.")] = 0.3,
    latency_ms: Annotated[int, typer.Option(help="Delay per response, in milliseconds.")] = 0,
    seed: Annotated[int, typer.Option(help="Seed for injected failures.")] = 0,
    fail_rate: Annotated[float, typer.Option(help="Share of requests answered with HTTP 500.")] = 0.0,
    fail_first_n: Annotated[int, typer.Option(help="Answer the first N requests with HTTP 500.")] = 0,
    api: Annotated[str, typer.Option(help=f"The wire format to speak: {', '.join(APIS)}.")] = "openai",
) -> None:
    """Serve a scripted model that plays the suite's tasks (recognised from the opening message only)."""
    if mode not in MODES:
        fail(f"--mode {mode!r}: choose one of {', '.join(MODES)}")
    if api not in APIS:
        fail(f"--api {api!r}: choose one of {', '.join(APIS)}")
    from statebox.fakemodel import FakeModelConfig, run_fake_model  # the HTTP stack, loaded only by this command
    from statebox.mcp import CannotListenError

    s = open_suite(suite)
    try:
        config = FakeModelConfig(
            cast(Mode, mode), error_rate, latency_ms, seed, fail_first_n, fail_rate, api=cast(Api, api)
        )
        run_fake_model(
            s,
            config,
            host,
            port,
            on_bound=lambda url: print(f"fake model for {suite} ({mode}, {api} API) at {url}", file=sys.stderr),
        )
    except (ValueError, CannotListenError) as e:
        fail(str(e))
