"""External tool servers: subprocesses over stdio, one per attempt, never left behind."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio
import pytest

from statebox.mcp import ExternalServer, ServerSpec, ToolServerError, WarmPool, load_servers_file

pytestmark = pytest.mark.anyio

TOOL_SERVER = Path(__file__).with_name("tool_server_app.py")


@pytest.fixture
def spec() -> ServerSpec:
    return ServerSpec(name="items", command=[sys.executable, str(TOOL_SERVER)])


def is_gone(pid: int) -> bool:
    """Whether the process has exited (a zombie awaiting its reaper counts as exited)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


async def assert_gone(*pids: int) -> None:
    with anyio.move_on_after(3):
        while not all(is_gone(pid) for pid in pids):
            await anyio.sleep(0.02)
    assert [pid for pid in pids if not is_gone(pid)] == [], "processes left behind"


def test_servers_file_fills_in_the_python_interpreter(tmp_path: Path) -> None:
    path = tmp_path / "servers.yaml"
    path.write_text("servers:\n  shop:\n    command: ['{python}', '-m', 'shop']\n    env: {MODE: strict}\n")
    specs = load_servers_file(path, python="/opt/py/bin/python")
    assert specs == {
        "shop": ServerSpec(name="shop", command=["/opt/py/bin/python", "-m", "shop"], env={"MODE": "strict"})
    }


def test_a_malformed_servers_file_says_so(tmp_path: Path) -> None:
    path = tmp_path / "servers.yaml"
    path.write_text("servers:\n  shop: {env: {}}\n")
    with pytest.raises(ValueError, match="not a valid servers file"):
        load_servers_file(path)


async def test_lists_and_calls_tools_then_leaves_no_process(spec: ServerSpec) -> None:
    async with ExternalServer(spec) as server:
        assert "add_item" in [tool.name for tool in server.list_tools()]
        first = await server.call_tool("add_item", {"name": "a"})
        second = await server.call_tool("add_item", {"name": "b"})
        child = int((await server.call_tool("spawn_child", {})).text)
        pid = server.pid
    assert (first.text, second.text) == ("1", "2")
    assert pid is not None
    await assert_gone(pid, child)


async def test_a_crash_is_a_tool_server_error_with_its_stderr(spec: ServerSpec) -> None:
    async with ExternalServer(spec) as server:
        pid = server.pid
        with pytest.raises(ToolServerError, match=r"exited during 'crash'(.|\n)*about to crash"):
            await server.call_tool("crash", {})
        with pytest.raises(ToolServerError):
            await server.call_tool("add_item", {"name": "after"})
    assert pid is not None
    await assert_gone(pid)


async def test_a_hang_times_out_as_a_tool_server_error(spec: ServerSpec) -> None:
    async with ExternalServer(spec, call_timeout_s=0.5) as server:
        pid = server.pid
        child = int((await server.call_tool("spawn_child", {})).text)
        with pytest.raises(ToolServerError, match=r"did not answer 'hang' within 0\.5 s"):
            await server.call_tool("hang", {})
    assert pid is not None
    await assert_gone(pid, child)


async def test_a_cancelled_caller_leaves_no_process(spec: ServerSpec) -> None:
    pids: list[int] = []

    async def cancel_soon(scope: anyio.CancelScope) -> None:
        await anyio.sleep(0.2)
        scope.cancel()

    async with anyio.create_task_group() as tg, ExternalServer(spec) as server:
        assert server.pid is not None
        pids += [server.pid, int((await server.call_tool("spawn_child", {})).text)]
        tg.start_soon(cancel_soon, tg.cancel_scope)
        await server.call_tool("hang", {})
    await assert_gone(*pids)


async def test_a_server_that_cannot_start_is_a_tool_server_error() -> None:
    spec = ServerSpec(name="missing", command=["/nonexistent/tool-server"])
    with pytest.raises(ToolServerError, match=r"'missing' failed to start(.|\n)*not found"):
        async with ExternalServer(spec):
            pass


async def test_the_pool_gives_each_attempt_its_own_fresh_process(spec: ServerSpec) -> None:
    async with WarmPool(spec, size=2) as pool:
        async with pool.acquire() as first, pool.acquire() as second:
            counts = [
                (await first.call_tool("add_item", {"name": "x"})).text,
                (await second.call_tool("add_item", {"name": "y"})).text,
                (await first.call_tool("add_item", {"name": "z"})).text,
            ]
            pids = [first.pid, second.pid]
        assert counts == ["1", "1", "2"], "a server's global state must not leak across attempts"
        assert None not in pids and pids[0] != pids[1]
        await assert_gone(*[pid for pid in pids if pid is not None])
        with anyio.fail_after(10):
            while pool.ready_count < 2:
                await anyio.sleep(0.05)
        ahead = pool.ready_pids()
    await assert_gone(*ahead)


async def test_a_pooled_server_that_fails_to_start_raises_on_acquire() -> None:
    spec = ServerSpec(name="missing", command=["/nonexistent/tool-server"])
    async with WarmPool(spec, size=1) as pool:
        with pytest.raises(ToolServerError, match="failed to start"):
            async with pool.acquire():
                pass
