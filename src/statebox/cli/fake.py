"""`statebox fake-model`: a scripted model endpoint (any provider's wire format) for tests and demos."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Annotated, cast

import typer

from statebox.cli.common import fail, open_suite
from statebox.cli.options import SuiteOptions, command
from statebox.fakemodel import MODES, Mode
from statebox.fakemodel.wire import APIS, Api


@dataclass(frozen=True)
class FakeModelOptions:
    """What `statebox fake-model` was given."""

    suite: str
    mode: Annotated[str, typer.Option(help=f"One of: {', '.join(MODES)}.")] = "reference"
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8765
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1"
    error_rate: Annotated[float, typer.Option(help="flaky: probability that an attempt makes a mistake.")] = 0.3
    latency_ms: Annotated[int, typer.Option(help="Delay per response, in milliseconds.")] = 0
    seed: Annotated[int, typer.Option(help="Seed for injected failures.")] = 0
    fail_rate: Annotated[float, typer.Option(help="Share of requests answered with HTTP 500.")] = 0.0
    fail_first_n: Annotated[int, typer.Option(help="Answer the first N requests with HTTP 500.")] = 0
    api: Annotated[str, typer.Option(help=f"The wire format to speak: {', '.join(APIS)}.")] = "openai"


def register(app: typer.Typer) -> None:
    app.command("fake-model")(command("fake-model", FakeModelOptions, fake_model, []))  # no suite options


def fake_model(opts: FakeModelOptions, _: SuiteOptions) -> None:
    """Serve a scripted model that plays the suite's tasks (recognised from the opening message only)."""
    if opts.mode not in MODES:
        fail(f"--mode {opts.mode!r}: choose one of {', '.join(MODES)}")
    if opts.api not in APIS:
        fail(f"--api {opts.api!r}: choose one of {', '.join(APIS)}")
    from statebox.fakemodel import FakeModelConfig, run_fake_model  # the HTTP stack, loaded only by this command
    from statebox.mcp import CannotListenError

    s = open_suite(opts.suite)
    announce = f"fake model for {opts.suite} ({opts.mode}, {opts.api} API) at"
    try:
        config = FakeModelConfig(
            cast(Mode, opts.mode), opts.error_rate, opts.latency_ms, opts.seed, opts.fail_first_n, opts.fail_rate,
            api=cast(Api, opts.api),
        )  # fmt: skip
        run_fake_model(s, config, opts.host, opts.port, on_bound=lambda url: print(announce, url, file=sys.stderr))
    except (ValueError, CannotListenError) as e:
        fail(str(e))
