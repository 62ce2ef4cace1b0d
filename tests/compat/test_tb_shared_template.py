"""Forked servers of one Python, environment and folder share a template: one process imports
every module once, each attempt still gets a fresh child running its own server."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from statebox.mcp.launch import LaunchSpec, ToolServerLauncher
from statebox.mcp.servers_file import ServerSpec

pytestmark = pytest.mark.anyio

# A minimal MCP server: `whoami` answers its module's name and how often this process was asked.
SERVER = """
import json
import anyio
import mcp_types as types
from mcp.server import Server
from mcp.server.stdio import stdio_server

MODULE = __spec__.name
CALLS = []


async def list_tools(ctx, params):
    return types.ListToolsResult(tools=[types.Tool(name="whoami", input_schema={"type": "object"})])


async def call_tool(ctx, params):
    CALLS.append(params.name)
    answer = {"module": MODULE, "calls": len(CALLS)}
    return types.CallToolResult(content=[types.TextContent(text=json.dumps(answer))])


async def serve():
    server = Server(MODULE, on_list_tools=list_tools, on_call_tool=call_tool)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(serve)
"""


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("servers")
    for name in ("alpha_server", "beta_server"):
        (folder / f"{name}.py").write_text(SERVER)
    return folder


def spec(name: str, module: str, env: dict[str, str] | None = None) -> LaunchSpec:
    return LaunchSpec(ServerSpec(name=name, command=[sys.executable, "-m", module], env=env or {}), "fork", ahead=1)


def two() -> list[LaunchSpec]:
    return [spec("alpha", "alpha_server"), spec("beta", "beta_server")]


async def whoami(launcher: ToolServerLauncher, name: str) -> dict[str, object]:
    async with launcher.connect(name) as server:
        result = await server.session.call_tool("whoami", {})
        text = result.content[0]
        assert text.type == "text"
        return dict(json.loads(text.text))


async def test_two_servers_prepared_together_fork_from_one_template(servers: Path) -> None:
    async with ToolServerLauncher(two(), cwd=servers) as launcher:
        await launcher.prepare("alpha", "beta")
        alpha, beta = launcher.template("alpha"), launcher.template("beta")
        assert alpha is not None and alpha is beta, "one template for both servers"
        assert alpha.ready["modes"] == {"alpha_server": "main_guard", "beta_server": "main_guard"}
        answers = [await whoami(launcher, name) for name in ("alpha", "beta", "alpha", "beta")]
    # every attempt's child runs its own server, with fresh module state
    assert answers == [{"module": m, "calls": 1} for m in ("alpha_server", "beta_server") * 2]


async def test_servers_with_different_environments_keep_templates_of_their_own(servers: Path) -> None:
    specs = [spec("alpha", "alpha_server", {"MODE": "a"}), spec("beta", "beta_server", {"MODE": "b"})]
    async with ToolServerLauncher(specs, cwd=servers) as launcher:
        await launcher.prepare("alpha", "beta")
        alpha, beta = launcher.template("alpha"), launcher.template("beta")
        assert alpha is not None and beta is not None and alpha is not beta
        assert alpha.template_pid != beta.template_pid
        assert [await whoami(launcher, name) for name in ("alpha", "beta")] == [
            {"module": "alpha_server", "calls": 1},
            {"module": "beta_server", "calls": 1},
        ]


async def test_a_server_started_before_prepare_keeps_its_own_template(servers: Path) -> None:
    async with ToolServerLauncher(two(), cwd=servers) as launcher:
        assert await whoami(launcher, "alpha") == {"module": "alpha_server", "calls": 1}
        await launcher.prepare("alpha", "beta")
        assert launcher.template("alpha") is not launcher.template("beta")
        assert await whoami(launcher, "beta") == {"module": "beta_server", "calls": 1}
