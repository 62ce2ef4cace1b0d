"""A port already in use: every serving command says so in one line naming the address, exits 2, and
never first announces that it is serving."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator

import pytest

COMMANDS = {
    "proxy": ["proxy", "--port", "{port}"],
    "serve --http": ["serve", "retail", "cancel_desk_wrong_order_number", "--http", "127.0.0.1:{port}"],
    "fake-model": ["fake-model", "retail", "--port", "{port}"],
    "openenv-serve": ["openenv-serve", "retail", "--port", "{port}"],
}


@pytest.fixture
def taken_port() -> Iterator[int]:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


@pytest.mark.parametrize("args", list(COMMANDS.values()), ids=list(COMMANDS))
def test_a_port_in_use_is_one_line_naming_the_address_and_exit_2(taken_port: int, args: list[str]) -> None:
    argv = [a.format(port=taken_port) for a in args]
    result = subprocess.run(
        [sys.executable, "-c", "from statebox.cli import main; main()", *argv],
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert lines == [f"error: cannot listen on 127.0.0.1:{taken_port}: address already in use"], result.stderr
    assert not result.stdout, result.stdout
