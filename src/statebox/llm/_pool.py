"""Keep-alive HTTP/1.1 connections to one URL: a stack of idle connections, nothing scanned.

httpx's connection pool looks at every connection (with a readability poll on each idle one)
to place each request, and its layers cost about 0.4 ms of CPU per call; the model client
already bounds its requests in flight, so a stack of idle connections is all it needs: a
request takes the most recently used one, or opens one. A URL that the environment sends
through a proxy (HTTPS_PROXY, ...) goes through httpx instead, which handles proxies.
"""

from __future__ import annotations

import asyncio
import urllib.parse
import urllib.request
from collections.abc import Mapping

import httpx

from ._h1 import Disconnected, H1Connection, RawResponse

KEEPALIVE_S = 4.0  # idle connections older than this are not reused (uvicorn closes them at 5 s)


class RequestTimeout(Exception):
    """The whole request (connecting, sending, the response) took longer than the timeout."""


class ConnectionStack:
    """POST to one URL over reused connections; at most as many connections as requests in flight."""

    def __init__(self, url: str, headers: dict[str, str], *, timeout_s: float) -> None:
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ValueError(f"not an http(s) URL: {url!r}")
        self._host = parsed.hostname
        self._port = parsed.port or (443 if parsed.scheme == "https" else 80)
        self._ssl = httpx.create_ssl_context() if parsed.scheme == "https" else None
        target = (parsed.path or "/") + (f"?{parsed.query}" if parsed.query else "")
        lines = [f"POST {target} HTTP/1.1", f"host: {parsed.netloc.rpartition('@')[2]}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        self._head = ("\r\n".join(lines) + "\r\n").encode("latin-1")
        self._timeout_s = timeout_s
        self._idle: list[H1Connection] = []

    async def post(self, body: bytes, extra_headers: Mapping[str, str] | None = None) -> RawResponse:
        extra = "".join(f"{name}: {value}\r\n" for name, value in (extra_headers or {}).items())
        head = self._head + extra.encode("latin-1") + b"content-length: %d\r\n\r\n" % len(body)
        try:
            async with asyncio.timeout(self._timeout_s) as deadline:
                return await self._send(head, body)
        except TimeoutError:
            if deadline.expired():
                raise RequestTimeout(f"no response within {self._timeout_s:g} s") from None
            raise

    async def aclose(self) -> None:
        idle, self._idle = self._idle, []
        for connection in idle:
            await connection.aclose()

    async def _send(self, head: bytes, body: bytes) -> RawResponse:
        while True:
            connection, reused = self._take()
            if connection is None:
                connection = await H1Connection.open(self._host, self._port, self._ssl)
            try:
                response = await connection.request(head, body)
            except (Disconnected, ConnectionResetError, BrokenPipeError) as exc:
                connection.abort()
                if reused and not getattr(exc, "started", False):
                    continue  # the server had closed this kept-alive connection: the request never arrived
                raise
            except BaseException:
                connection.abort()
                raise
            if connection.reusable:
                self._idle.append(connection)
            else:
                connection.abort()
            return response

    def _take(self) -> tuple[H1Connection | None, bool]:
        while self._idle:
            connection = self._idle.pop()
            if not connection.is_stale(KEEPALIVE_S):
                return connection, True
            connection.abort()
        return None, False


class ProxiedClient:
    """POST through httpx, for URLs the environment routes through a proxy."""

    def __init__(self, url: str, headers: dict[str, str], *, timeout_s: float, max_connections: int) -> None:
        self._url = url
        self._http = httpx.AsyncClient(
            headers=headers,
            timeout=httpx.Timeout(timeout_s),
            limits=httpx.Limits(max_connections=max_connections, max_keepalive_connections=max_connections),
        )

    async def post(self, body: bytes, extra_headers: Mapping[str, str] | None = None) -> RawResponse:
        response = await self._http.post(self._url, content=body, headers=dict(extra_headers or {}))
        return RawResponse(response.status_code, response.headers, response.content)

    async def aclose(self) -> None:
        await self._http.aclose()


def uses_proxy(url: str) -> bool:
    """Whether the environment (HTTPS_PROXY, ALL_PROXY, ... less NO_PROXY) routes `url` through a proxy."""
    parsed = urllib.parse.urlsplit(url)
    proxies = urllib.request.getproxies()
    if not (proxies.get(parsed.scheme) or proxies.get("all")):
        return False
    return not urllib.request.proxy_bypass(parsed.hostname or "")
