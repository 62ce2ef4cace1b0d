"""External tool servers through the launcher: a fresh process per attempt, plain or forked, never left behind."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio
import mcp_types as types
import pytest

from statebox.mcp import (
    LaunchSpec,
    ServerSpec,
    ToolServerError,
    ToolServerLauncher,
    ToolServerSurface,
    load_servers_file,
)
from statebox.mcp.launch import Strategy

pytestmark = pytest.mark.anyio

TOOL_SERVER = Path(__file__).with_name("tool_server_app.py")
STRATEGIES: list[Strategy] = ["plain", "fork"]


def items_server(strategy: Strategy, ahead: int = 0) -> LaunchSpec:
    """`tool_server_app` as a script (plain) or as `python -m tool_server_app` (forkable)."""
    if strategy == "plain":
        return LaunchSpec(ServerSpec(name="items", command=[sys.executable, str(TOOL_SERVER)]), "plain", ahead)
    command, env = [sys.executable, "-m", TOOL_SERVER.stem], {"PYTHONPATH": str(TOOL_SERVER.parent)}
    return LaunchSpec(ServerSpec(name="items", command=command, env=env), "fork", ahead)


def text(result: types.CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, types.TextContent))


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


async def ready_ahead(launcher: ToolServerLauncher, count: int) -> list[int]:
    with anyio.fail_after(20):
        while len(launcher.ready_pids("items")) < count:
            await anyio.sleep(0.02)
    return launcher.ready_pids("items")


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


def test_only_a_python_module_command_can_be_forked() -> None:
    spec = ServerSpec(name="shop", command=["/usr/local/bin/shop-server", "--stdio"])
    with pytest.raises(ValueError, match=r"'shop': only `python -m module` can be forked, not `/usr/local/bin/shop"):
        LaunchSpec(spec, "fork")


async def test_an_unknown_server_is_named_with_the_known_ones() -> None:
    async with ToolServerLauncher([items_server("plain")]) as launcher:
        with pytest.raises(KeyError, match=r"no tool server 'shop' in this launcher \(known: items\)"):
            async with launcher.connect("shop"):
                pass


@pytest.mark.parametrize("strategy", STRATEGIES)
async def test_lists_and_calls_tools_then_leaves_no_process(strategy: Strategy) -> None:
    async with ToolServerLauncher([items_server(strategy)]) as launcher:
        async with launcher.connect("items") as server:
            surface = await ToolServerSurface.connect(server)
            assert "add_item" in [tool.name for tool in surface.list_tools()]
            first = await surface.call_tool("add_item", {"name": "a"})
            second = await surface.call_tool("add_item", {"name": "b"})
            child = int((await surface.call_tool("spawn_child", {})).text)
        assert (first.text, second.text) == ("1", "2")
        assert server.forked is (strategy == "fork")
        await assert_gone(server.pid, child)


@pytest.mark.parametrize("strategy", STRATEGIES)
async def test_a_crash_is_a_tool_server_error_with_its_stderr(strategy: Strategy) -> None:
    async with ToolServerLauncher([items_server(strategy)]) as launcher:
        async with launcher.connect("items") as server:
            surface = await ToolServerSurface.connect(server)
            with pytest.raises(ToolServerError, match=r"exited during 'crash'(.|\n)*about to crash"):
                await surface.call_tool("crash", {})
            with pytest.raises(ToolServerError, match="exited during 'crash'"):  # a failed server stays failed
                await surface.call_tool("add_item", {"name": "after"})
        await assert_gone(server.pid)


@pytest.mark.parametrize("strategy", STRATEGIES)
async def test_a_hang_times_out_as_a_tool_server_error(strategy: Strategy) -> None:
    launcher = ToolServerLauncher([items_server(strategy)], call_timeout_s=0.5)
    async with launcher, launcher.connect("items") as server:
        surface = await ToolServerSurface.connect(server)
        child = int((await surface.call_tool("spawn_child", {})).text)
        with pytest.raises(ToolServerError, match=r"'items' \(pid \d+\) did not answer 'hang' within 0\.5 s"):
            await surface.call_tool("hang", {})
        await assert_gone(server.pid, child)  # killed at once, not when the attempt ends


@pytest.mark.parametrize("strategy", STRATEGIES)
async def test_a_cancelled_caller_leaves_no_process(strategy: Strategy) -> None:
    pids: list[int] = []

    async def cancel_soon(scope: anyio.CancelScope) -> None:
        await anyio.sleep(0.2)
        scope.cancel()

    async with ToolServerLauncher([items_server(strategy)]) as launcher:
        async with anyio.create_task_group() as tg, launcher.connect("items") as server:
            pids += [server.pid, int(text(await server.call_tool("spawn_child", {})))]
            tg.start_soon(cancel_soon, tg.cancel_scope)
            await server.call_tool("hang", {})
        await assert_gone(*pids)


async def test_a_server_that_cannot_start_is_a_tool_server_error() -> None:
    spec = LaunchSpec(ServerSpec(name="missing", command=["/nonexistent/tool-server"]))
    async with ToolServerLauncher([spec]) as launcher:
        with pytest.raises(ToolServerError, match=r"'missing' failed to start: .*No such file"):
            async with launcher.connect("missing"):
                pass


@pytest.mark.parametrize("strategy", STRATEGIES)
async def test_each_attempt_takes_its_own_process_started_ahead_and_none_outlives_the_launcher(
    strategy: Strategy,
) -> None:
    async with ToolServerLauncher([items_server(strategy, ahead=2)]) as launcher:
        await launcher.prepare("items")
        ahead = await ready_ahead(launcher, 2)
        async with launcher.connect("items") as first, launcher.connect("items") as second:
            counts = [
                text(await first.call_tool("add_item", {"name": "x"})),
                text(await second.call_tool("add_item", {"name": "y"})),
                text(await first.call_tool("add_item", {"name": "z"})),
            ]
        assert counts == ["1", "1", "2"], "a server's global state must not leak across attempts"
        assert sorted([first.pid, second.pid]) == sorted(ahead), "attempts take the processes started ahead"
        await assert_gone(first.pid, second.pid)
        refilled = await ready_ahead(launcher, 2)
    await assert_gone(*refilled)


async def test_a_failed_start_ahead_is_raised_by_the_attempt_that_needs_the_server() -> None:
    spec = LaunchSpec(ServerSpec(name="missing", command=["/nonexistent/tool-server"]), ahead=1)
    async with ToolServerLauncher([spec]) as launcher:
        await launcher.prepare("missing")
        with pytest.raises(ToolServerError, match="'missing' failed to start"):
            async with launcher.connect("missing"):
                pass
