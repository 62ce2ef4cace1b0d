"""Serve a fake attempt the way `statebox serve` will: `serve_app.py stdio|http OUT_FILE`.

When the attempt ends, its result is written to OUT_FILE; in http mode the endpoint
URL is printed on stdout once it accepts connections.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
from mcp_fakes import FakeAttempt

from statebox.mcp import HostedAttempt, serve_http, serve_stdio


def main(mode: str, out: Path) -> None:
    def write_result(attempt: HostedAttempt) -> None:
        partial = out.with_name(out.name + ".partial")  # whole or absent for a reader polling for it
        partial.write_text(json.dumps(attempt.result()))
        os.replace(partial, out)

    def announce(url: str) -> None:
        print(url, flush=True)

    if mode == "stdio":
        anyio.run(serve_stdio, FakeAttempt(), write_result)
    else:
        anyio.run(lambda: serve_http(FakeAttempt(), "127.0.0.1", 0, write_result, announce))


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
