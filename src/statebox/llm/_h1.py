"""One HTTP/1.1 connection over asyncio streams: a POST written in one go, its response read back.

Just what a JSON API call needs: a Content-Length request body; a response body framed by
Content-Length, chunked transfer coding, or the end of the connection. Kept alive unless
either side says otherwise.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import Mapping
from dataclasses import dataclass

_READ_LIMIT = 1 << 20  # longest header block or chunk-size line accepted


@dataclass(frozen=True)
class RawResponse:
    status: int
    headers: Mapping[str, str]  # names lower-cased
    content: bytes


class ProtocolError(Exception):
    """The server's bytes are not an HTTP/1.1 response."""


class Disconnected(ConnectionError):
    """The connection ended before the response did (`started`: after some of it arrived)."""

    def __init__(self, message: str, *, started: bool) -> None:
        super().__init__(message)
        self.started = started


class H1Connection:
    """A connection to one origin; not shared between requests in flight."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self.idle_since = time.monotonic()
        self.reusable = True

    @classmethod
    async def open(cls, host: str, port: int, ssl_context: ssl.SSLContext | None) -> H1Connection:
        reader, writer = await asyncio.open_connection(
            host, port, ssl=ssl_context, server_hostname=host if ssl_context else None, limit=_READ_LIMIT
        )
        return cls(reader, writer)

    def is_stale(self, keepalive_s: float) -> bool:
        """Closed by the server, broken, or idle longer than `keepalive_s`."""
        return (
            self._reader.at_eof()
            or self._writer.is_closing()
            or self._reader.exception() is not None
            or time.monotonic() - self.idle_since > keepalive_s
        )

    async def request(self, head: bytes, body: bytes) -> RawResponse:
        """Send a request (`head` ends with the blank line) and read its whole response."""
        self.reusable = False  # until the response has been read to its end
        self._writer.write(head + body)
        await self._writer.drain()
        status, headers, keep_alive = _parse_head(await self._head())
        while 100 <= status < 200:  # informational (100 Continue, 103 Early Hints): the response follows
            status, headers, keep_alive = _parse_head(await self._head(started=True))
        content, framed = await self._body(status, headers)
        self.reusable = keep_alive and framed
        self.idle_since = time.monotonic()
        return RawResponse(status, headers, content)

    async def aclose(self) -> None:
        self.abort()
        try:
            await self._writer.wait_closed()
        except (OSError, ssl.SSLError):
            return

    def abort(self) -> None:
        """Close without waiting (a connection in an unknown state is never reused)."""
        self.reusable = False
        self._writer.close()

    async def _head(self, *, started: bool = False) -> bytes:
        """The status line and headers, up to the blank line."""
        try:
            return await self._reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as exc:
            message = "server closed the connection without a response"
            raise Disconnected(message, started=started or bool(exc.partial)) from None
        except asyncio.LimitOverrunError:
            raise ProtocolError("response headers too long") from None

    async def _body(self, status: int, headers: Mapping[str, str]) -> tuple[bytes, bool]:
        """The body, and whether its end was framed (else the connection had to end it)."""
        if status in (204, 304):
            return b"", True
        try:
            if "chunked" in headers.get("transfer-encoding", "").lower():
                return await self._chunked(), True
            length = headers.get("content-length")
            if length is not None:
                try:
                    size = int(length)
                except ValueError:
                    raise ProtocolError(f"bad content-length {length!r}") from None
                return await self._reader.readexactly(size), True
            return await self._reader.read(), False
        except asyncio.IncompleteReadError:
            raise Disconnected("server closed the connection in the middle of the response", started=True) from None

    async def _chunked(self) -> bytes:
        parts: list[bytes] = []
        while True:
            line = await self._reader.readuntil(b"\r\n")
            try:
                size = int(line.split(b";", 1)[0].strip(), 16)
            except ValueError:
                raise ProtocolError(f"bad chunk size line {line[:40]!r}") from None
            if size == 0:
                while (await self._reader.readuntil(b"\r\n")) != b"\r\n":  # trailers, then the blank line
                    pass
                return b"".join(parts)
            parts.append(await self._reader.readexactly(size))
            await self._reader.readexactly(2)


def _parse_head(block: bytes) -> tuple[int, dict[str, str], bool]:
    lines = block.decode("latin-1").split("\r\n")
    version, _, rest = lines[0].partition(" ")
    code = rest.partition(" ")[0]
    if not version.startswith("HTTP/") or not code.isdigit():
        raise ProtocolError(f"not an HTTP response: {lines[0][:60]!r}")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            continue
        name, sep, value = line.partition(":")
        if not sep:
            raise ProtocolError(f"bad header line {line[:60]!r}")
        key, value = name.strip().lower(), value.strip()
        headers[key] = f"{headers[key]}, {value}" if key in headers else value
    connection = headers.get("connection", "").lower()
    keep_alive = "close" not in connection and (version != "HTTP/1.0" or "keep-alive" in connection)
    return int(code), headers, keep_alive
