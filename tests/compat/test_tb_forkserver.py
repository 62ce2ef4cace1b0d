"""The fork server: one import in a template, a fresh isolated child per attempt, nothing left behind."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path

import anyio
import mcp_types as types
import pytest
from mcp import ClientSession
from mcp.client.stdio import get_default_environment
from mcp.shared.exceptions import MCPError

from statebox.compat.thinkingbox import TbCheckout, clock_pin_env, reserved_geteffects, reserved_init
from statebox.compat.thinkingbox.protocol import result_text
from statebox.mcp.errors import ToolServerError
from statebox.mcp.launch import ForkServer, ForkTarget, forked_stdio_client
from tbfakes import FakeCheckout, make_fake_checkout

pytestmark = pytest.mark.anyio
IMPORT_DELAY_S = 1.0


def fork_target(fake: FakeCheckout, module: str = "fake_tb_server", delay_s: float = 0.0) -> ForkTarget:
    entry = TbCheckout(fake.root).servers().entry("sandbox_external_retail")
    env = get_default_environment() | entry.env | {"FAKE_TB_IMPORT_DELAY_S": str(delay_s)}
    return ForkTarget(module, python=sys.executable, env=clock_pin_env(env), cwd=str(fake.root))


def is_gone(pid: int) -> bool:
    """Whether `pid` has left the process table (a zombie has not: nobody reaped it yet)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return not Path(f"/proc/{pid}").exists()


async def eventually_gone(*pids: int) -> list[int]:
    """The pids still present after up to 3 s."""
    with anyio.move_on_after(3):
        while not all(is_gone(pid) for pid in pids):
            await anyio.sleep(0.01)
    return [pid for pid in pids if not is_gone(pid)]


def is_dead(pid: int) -> bool:
    """Gone, or a zombie waiting for its reaper."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


async def eventually_dead(*pids: int) -> list[int]:
    with anyio.move_on_after(3):
        while not all(is_dead(pid) for pid in pids):
            await anyio.sleep(0.01)
    return [pid for pid in pids if not is_dead(pid)]


def order(i: int) -> dict[str, object]:
    return {"id": f"ORD-X{i}", "customer_id": "CUS-1", "status": "processing", "shipping_speed": "standard", "total": i}


async def test_five_children_are_isolated_start_fast_and_leave_nothing_behind(tmp_path: Path) -> None:
    fake = make_fake_checkout(tmp_path, import_delay_s=IMPORT_DELAY_S)
    outcomes: dict[int, tuple[int, float, list[tuple[str, str]]]] = {}

    async def attempt(server: ForkServer, i: int) -> None:
        with tempfile.TemporaryFile() as errlog:
            started = time.perf_counter()
            child = await server.fork(errlog)
            async with forked_stdio_client(child) as streams, ClientSession(*streams) as session:
                await session.initialize()
                startup_s = time.perf_counter() - started
                await reserved_init(session, "shop", {"data_patch": {"orders": [order(i)]}})
                await session.call_tool("cancel_order", {"order_id": f"ORD-X{i}", "reason": "customer_request"})
                effects = await reserved_geteffects(session, "shop")
            assert effects.result_db_state is not None
            rows = [(row["id"], row["status"]) for row in effects.result_db_state["orders"]]
            outcomes[i] = (child.pid, startup_s, rows)
            assert await eventually_gone(child.pid) == []

    async with ForkServer(fork_target(fake, delay_s=IMPORT_DELAY_S)) as server:
        template_pid = server.template_pid
        assert server.ready["preload_s"] >= IMPORT_DELAY_S
        assert server.ready["learned_imports"] > 0  # the trial run's lazy imports, now preloaded
        async with anyio.create_task_group() as tg:
            for i in range(5):
                tg.start_soon(attempt, server, i)
    assert template_pid is not None and await eventually_gone(template_pid) == []

    for i, (_, startup_s, rows) in outcomes.items():
        assert rows == [("ORD-1", "processing"), (f"ORD-X{i}", "cancelled")], f"child {i} saw another's writes"
        assert startup_s < IMPORT_DELAY_S / 2, f"child {i} took {startup_s:.3f} s to start"
    assert len({pid for pid, _, _ in outcomes.values()}) == 5


async def test_a_crashing_child_surfaces_as_a_closed_connection_and_is_reaped(fake: FakeCheckout) -> None:
    async with ForkServer(fork_target(fake)) as server:
        with tempfile.TemporaryFile() as errlog:
            child = await server.fork(errlog)
            async with forked_stdio_client(child) as streams, ClientSession(*streams) as session:
                await session.initialize()
                with anyio.fail_after(5), pytest.raises(MCPError, match="Connection closed") as raised:
                    await session.call_tool("crash_now", {})
                assert raised.value.code == types.CONNECTION_CLOSED
        assert await eventually_gone(child.pid) == []


async def test_an_error_in_the_attempt_propagates_unwrapped_and_the_child_is_reaped(fake: FakeCheckout) -> None:
    async with ForkServer(fork_target(fake)) as server:
        with tempfile.TemporaryFile() as errlog:
            child = await server.fork(errlog)
            with pytest.raises(LookupError, match="the attempt failed"):
                async with forked_stdio_client(child):
                    raise LookupError("the attempt failed")
        assert await eventually_gone(child.pid) == []


async def test_the_forked_child_sees_the_pinned_clock(fake: FakeCheckout) -> None:
    async with ForkServer(fork_target(fake)) as server:
        await anyio.sleep(1.1)  # the template's own clock moved on; a child starts again at the pin
        with tempfile.TemporaryFile() as errlog:
            child = await server.fork(errlog)
            async with forked_stdio_client(child) as streams, ClientSession(*streams) as session:
                await session.initialize()
                answer = json.loads(result_text(await session.call_tool("is_warranty_active", {"product_id": "PRD-1"})))
    assert answer == {"product_id": "PRD-1", "active": True, "today": "2025-10-01"}


async def test_a_module_with_a_main_block_is_imported_whole_and_only_its_main_block_runs(fake: FakeCheckout) -> None:
    target = dataclasses.replace(fork_target(fake, module="fake_tb_server.app"), probe=False)
    async with ForkServer(target) as server:
        assert server.ready["mode"] == "main_guard" and server.ready["learned_imports"] == 0
        with tempfile.TemporaryFile() as errlog:
            child = await server.fork(errlog)
            async with forked_stdio_client(child) as streams, ClientSession(*streams) as session:
                await session.initialize()
                tools = {tool.name for tool in (await session.list_tools()).tools}
    assert {"cancel_order", "__reserved__init"} <= tools


async def test_closing_the_fork_server_kills_children_still_running(fake: FakeCheckout) -> None:
    with tempfile.TemporaryFile() as errlog:
        async with ForkServer(fork_target(fake)) as server:
            children = [await server.fork(errlog) for _ in range(2)]
            template_pid = server.template_pid
        assert template_pid is not None
        assert await eventually_gone(template_pid, *(child.pid for child in children)) == []
        for child in children:
            child.close()


async def test_children_die_with_the_template_and_forking_then_fails(fake: FakeCheckout) -> None:
    with tempfile.TemporaryFile() as errlog:
        async with ForkServer(fork_target(fake)) as server:
            child = await server.fork(errlog)
            assert server.template_pid is not None
            os.kill(server.template_pid, signal.SIGKILL)
            assert await eventually_dead(child.pid) == []  # orphaned: init reaps it, in its own time
            with pytest.raises(ToolServerError, match="fork server 'fake_tb_server' exited"):
                await server.fork(errlog)
            child.close()


async def test_an_answer_nobody_waited_for_is_dropped_and_its_child_killed(fake: FakeCheckout) -> None:
    async with ForkServer(fork_target(fake)) as server:
        with tempfile.TemporaryFile() as errlog:
            left, right = socket.socketpair()
            # A request whose caller was cancelled after sending: its answer arrives unread.
            await server._send({"op": "fork", "id": 0}, [right.fileno(), errlog.fileno()])
            right.close()
            child = await server.fork(errlog)
            async with forked_stdio_client(child) as streams, ClientSession(*streams) as session:
                await session.initialize()
            left.settimeout(5)
            orphan = left.recv(1)  # the orphan's stdin/stdout ends when it is killed
            left.close()
    assert orphan == b""


async def test_a_server_that_cannot_be_imported_fails_to_start_with_the_reason(fake: FakeCheckout) -> None:
    with pytest.raises(ToolServerError, match="could not load the server: cannot load no_such_server_module"):
        async with ForkServer(fork_target(fake, module="no_such_server_module")):
            pass


WRAPPING_SERVER = """
import io, json, sys

def main():
    # As mcp 1.x's stdio_server (under FastMCP) does: wrap the buffers sys made at start-up.
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8")
    stdout = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8")
    for line in stdin:
        message = json.loads(line)
        if "id" not in message:
            continue
        if message["method"] == "initialize":
            result = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                      "serverInfo": {"name": "wrapping", "version": "1"}}
        else:
            result = {"tools": []}
        stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}) + "\\n")
        stdout.flush()

if __name__ == "__main__":
    main()
"""


async def test_a_server_wrapping_sys_stdout_buffer_gets_streams_made_for_its_socket(tmp_path: Path) -> None:
    (tmp_path / "wrapping_server.py").write_text(WRAPPING_SERVER)
    env = clock_pin_env(get_default_environment() | {"PYTHONPATH": str(tmp_path)})
    async with ForkServer(ForkTarget("wrapping_server", env=env, cwd=str(tmp_path))) as server:
        with tempfile.TemporaryFile() as errlog:
            child = await server.fork(errlog)
            async with forked_stdio_client(child) as streams, ClientSession(*streams) as session:
                with anyio.fail_after(5):
                    await session.initialize()
                    assert (await session.list_tools()).tools == []
