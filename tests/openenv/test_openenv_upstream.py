"""OpenEnv's private names behind one wrapper (statebox/openenv/upstream.py): an OpenEnv without them stops the
server or client as it is made, with one line naming the openenv-core version; with them the wrapper works
(over a real socket: test_openenv_idle frees a slot, test_openenv_serve_cli sends the token)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from importlib import metadata
from typing import Any

import pytest
from openenv.core import EnvClient, HTTPEnvServer

from statebox.openenv.client import StateboxEnv
from statebox.openenv.environment import StateboxEnvironment
from statebox.openenv.models import StateboxAction, StateboxObservation
from statebox.openenv.upstream import SessionSlots
from statebox.private_api import PrivateApiChanged

OPENENV = metadata.version("openenv-core")


def losing(init: Callable[..., None], name: str) -> Callable[..., None]:
    """`init`, followed by deleting the attribute `name` it made (an OpenEnv that renamed it)."""

    def patched(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        delattr(self, name)

    return patched


def make_server() -> HTTPEnvServer:
    return HTTPEnvServer(StateboxEnvironment, StateboxAction, StateboxObservation, max_concurrent_envs=1)


def assert_one_line(error: PrivateApiChanged, needed: str, by: str) -> None:
    message = str(error)
    assert "\n" not in message, message
    assert f"{by} needs {needed}, which openenv-core {OPENENV} does not have" in message, message


@pytest.mark.parametrize("name", ["_sessions", "_destroy_session"])
def test_a_server_without_its_session_table_stops_with_one_line(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    if name == "_sessions":
        monkeypatch.setattr(HTTPEnvServer, "__init__", losing(HTTPEnvServer.__init__, name))
    else:
        monkeypatch.delattr(HTTPEnvServer, name)
    with pytest.raises(PrivateApiChanged) as raised:
        SessionSlots(make_server())
    needed = f"openenv.core.env_server.http_server.HTTPEnvServer.{name}"
    assert_one_line(raised.value, needed, "statebox.openenv.server")


def test_freeing_an_environment_ends_only_its_sessions() -> None:
    server = make_server()
    mine, other = object(), object()
    server._sessions.update({"a": mine, "b": other})
    ended: list[str] = []

    async def destroy(session_id: str) -> None:
        ended.append(session_id)

    server._destroy_session = destroy  # type: ignore[method-assign]
    asyncio.run(SessionSlots(server).free(mine))
    assert ended == ["a"]


@pytest.mark.parametrize("name", ["_ws", "_ws_url", "_connect_timeout", "_max_message_size"])
def test_a_client_without_its_socket_attributes_stops_with_one_line(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.setattr(EnvClient, "__init__", losing(EnvClient.__init__, name))
    with pytest.raises(PrivateApiChanged) as raised:
        StateboxEnv("http://127.0.0.1:9", token="t")
    assert_one_line(raised.value, f"statebox.openenv.client.StateboxEnv.{name}", "statebox.openenv.client")


def test_a_client_of_this_openenv_is_made() -> None:
    assert StateboxEnv("http://127.0.0.1:9", token="t")._ws_url == "ws://127.0.0.1:9/ws"
