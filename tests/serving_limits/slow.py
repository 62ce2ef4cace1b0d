"""Slow clients over raw sockets: a request head or body sent a little at a time, or nothing at all."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Cut:
    """What a slow client got back, and after how long the server gave up on it."""

    answer: bytes
    after_s: float
    reset: bool = False  # the server closed with data of ours unread: its answer may be lost

    @property
    def status(self) -> int | None:
        parts = self.answer.split(b" ", 2)
        return int(parts[1]) if len(parts) > 1 and parts[0].startswith(b"HTTP/") and parts[1].isdigit() else None


async def dribble(host: str, port: int, first: bytes, then: bytes, every_s: float, give_up_s: float) -> Cut:
    """Send `first`, then `then` every `every_s` (never completing the request); what the server answers."""
    started = time.monotonic()
    reader, writer = await asyncio.open_connection(host, port)
    try:
        if first:
            writer.write(first)
            await writer.drain()
        answer = b""
        while time.monotonic() - started < give_up_s:
            try:
                chunk = await asyncio.wait_for(reader.read(65536), every_s)
            except ConnectionResetError:
                return Cut(answer, time.monotonic() - started, reset=True)
            except TimeoutError:
                if then:
                    try:
                        writer.write(then)
                        await writer.drain()
                    except ConnectionError:
                        return Cut(answer, time.monotonic() - started, reset=True)
                continue
            if not chunk:
                break  # the server closed the connection
            answer += chunk
        return Cut(answer, time.monotonic() - started)
    finally:
        writer.close()


def slow_head(host: str, path: str = "/ready") -> tuple[bytes, bytes]:
    """A GET whose head never ends: one more header line at a time."""
    return f"GET {path} HTTP/1.1\r\nHost: {host}\r\n".encode(), b"X-Still-Coming: yes\r\n"


def slow_body(host: str, path: str, headers: dict[str, str]) -> tuple[bytes, bytes]:
    """A POST that announces 10,000 bytes of body and sends one at a time."""
    lines = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    head = f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n"
    return (head + lines + "\r\n{").encode(), b" "
