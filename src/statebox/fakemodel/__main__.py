"""`python -m statebox.fakemodel SUITE --mode MODE --port P`: the fake model in its own process."""

from __future__ import annotations

import argparse
from typing import cast

from statebox.fakemodel.app import FakeModelConfig
from statebox.fakemodel.plan import MODES, Mode
from statebox.fakemodel.serve import run_fake_model
from statebox.fakemodel.wire import APIS, Api


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m statebox.fakemodel", description=__doc__)
    parser.add_argument("suite", help="a built-in suite, e.g. retail")
    parser.add_argument("--mode", choices=MODES, default="reference")
    parser.add_argument("--api", choices=APIS, default="openai", help="the wire format to speak")
    parser.add_argument("--error-rate", type=float, default=0.3, help="flaky: chance of a mistake per attempt")
    parser.add_argument("--latency-ms", type=float, default=0.0, help="from each request's arrival to its reply")
    parser.add_argument(
        "--latency-jitter-ms", type=float, default=0.0, help="each reply's latency uniform in latency +- this"
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--seed", type=int, default=0, help="seeds injected failures")
    parser.add_argument("--fail-first-n", type=int, default=0, help="answer the first N requests with HTTP 500")
    parser.add_argument("--fail-rate", type=float, default=0.0, help="answer requests with HTTP 500 at this rate")
    a = parser.parse_args(argv)
    config = FakeModelConfig(
        cast(Mode, a.mode),
        a.error_rate,
        a.latency_ms,
        a.seed,
        a.fail_first_n,
        a.fail_rate,
        latency_jitter_ms=a.latency_jitter_ms,
        api=cast(Api, a.api),
    )
    run_fake_model(a.suite, config, a.host, a.port)


if __name__ == "__main__":
    main()
