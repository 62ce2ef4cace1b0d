"""The one place statebox reaches into OpenEnv's private names, each checked when its user starts.

OpenEnv's server keeps its WebSocket sessions in a private table with no public way to end one, and
its client opens its socket with no way to add a header. A release that renames these stops the
server or client at once with one line naming the openenv-core version, instead of idle sessions
that silently keep their slots or a token that is silently never sent.
"""

from __future__ import annotations

from typing import Any

from openenv.core import EnvClient, HTTPEnvServer
from websockets.asyncio.client import connect as ws_connect

from statebox.private_api import exists, require

DISTRIBUTION = "openenv-core"
CLIENT_ATTRIBUTES = ("_ws", "_ws_url", "_connect_timeout", "_max_message_size")


class SessionSlots:
    """The session table of an `HTTPEnvServer`: frees the slot of an environment whose episode ended."""

    def __init__(self, server: HTTPEnvServer) -> None:
        needed_by = "statebox.openenv.server"
        require(server, ("_destroy_session",), distribution=DISTRIBUTION, needed_by=needed_by)
        require(server, ("_sessions",), distribution=DISTRIBUTION, needed_by=needed_by,
                present=lambda table: isinstance(table, dict))
        self._server = server

    async def free(self, env: object) -> None:
        """End every session holding `env` (the client's next step gets the environment's own answer)."""
        server: Any = self._server
        for session_id, held in list(server._sessions.items()):
            if held is env:
                await server._destroy_session(session_id)


def check_client(client: EnvClient[Any, Any, Any]) -> None:
    """PrivateApiChanged unless `client` (made by `EnvClient.__init__`) has what `connect_with_headers` uses."""
    require(client, CLIENT_ATTRIBUTES, distribution=DISTRIBUTION, needed_by="statebox.openenv.client", present=exists)


async def connect_with_headers(client: EnvClient[Any, Any, Any], headers: dict[str, str]) -> None:
    """Open `client`'s WebSocket as `EnvClient.connect` does, sending `headers` with the handshake."""
    held: Any = client
    if held._ws is not None:
        return
    try:
        held._ws = await ws_connect(
            held._ws_url, open_timeout=held._connect_timeout, max_size=held._max_message_size,
            additional_headers=headers,
        )
    except Exception as e:  # as the base client does: one error type for "could not connect"
        raise ConnectionError(f"Failed to connect to {held._ws_url}: {e}") from e
