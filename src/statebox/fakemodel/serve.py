"""Serving the fake model: blocking, for its own process, or in a background thread for tests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from types import TracebackType

import uvicorn

from statebox.fakemodel.app import FakeModelApp, FakeModelConfig
from statebox.mcp.http_serving import base_url, bind_socket
from statebox.tasks.worlds import TaskWorlds, load_worlds


def run_fake_model(
    suite: TaskWorlds | str,
    config: FakeModelConfig | None = None,
    host: str = "127.0.0.1",
    port: int = 8765,
    on_bound: Callable[[str], None] | None = None,
) -> None:
    """Serve the fake model for a suite (a built-in suite's tasks, or its name) until interrupted, playing as
    `config` says (default: the reference, over the OpenAI API).

    The address is bound first (CannotListenError when it is taken); `on_bound` then gets the base URL
    a client of the config's `api` is given.
    """
    chosen = load_worlds(suite) if isinstance(suite, str) else suite
    app = FakeModelApp(chosen, config or FakeModelConfig())
    sock = bind_socket(host, port)
    if on_bound is not None:
        on_bound(base_url(sock) + app.wire.base_path)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()


class FakeModelServer:
    """A fake model app served by uvicorn in a daemon thread; `with` starts and stops it.

    Port 0 (the default) picks a free port; `base_url` is what a client of the app's API needs.
    With `tls` (a certificate file and its key file) it serves HTTPS, its base URL naming
    `localhost`.
    """

    def __init__(
        self, app: FakeModelApp, host: str = "127.0.0.1", port: int = 0, tls: tuple[str, str] | None = None
    ) -> None:
        self.app = app
        self.host = host
        self._scheme, self._name = ("https", "localhost") if tls else ("http", host)
        # IPPROTO_TCP explicitly: asyncio sets TCP_NODELAY only on sockets that say they are TCP,
        # and without it every keep-alive request waits ~40 ms for a delayed ACK.
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind((host, port))
        self.port: int = self._socket.getsockname()[1]
        certificate, key = tls or (None, None)
        config = uvicorn.Config(app, log_level="warning", lifespan="off", ssl_certfile=certificate, ssl_keyfile=key)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._socket]}, daemon=True)

    @property
    def base_url(self) -> str:
        """What a client of the app's API is given as its base URL (an app wrapping the fake model
        without saying its format speaks Chat Completions, under /v1)."""
        wire = getattr(self.app, "wire", None)
        return f"{self._scheme}://{self._name}:{self.port}{wire.base_path if wire is not None else '/v1'}"

    def start(self, timeout_s: float = 10.0) -> None:
        self._thread.start()
        deadline = time.monotonic() + timeout_s
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the fake model server did not start on {self.host}:{self.port}")
            time.sleep(0.01)

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=5)
        self._socket.close()

    def __enter__(self) -> FakeModelServer:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.stop()
