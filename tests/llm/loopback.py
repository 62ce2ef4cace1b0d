"""Loopback servers for the transport tests: an aiohttp web app in the test's own loop, a forwarding
HTTP proxy (absolute-form requests and CONNECT tunnels), a SOCKS5 proxy, and a private CA."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import ipaddress
import json
import ssl
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

from aiohttp import web

REPLY = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 0,
    "model": "m",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4},
}
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


async def ok(request: web.Request) -> web.Response:
    await request.read()
    return web.json_response(REPLY)


@asynccontextmanager
async def serve(handler: Handler = ok, ssl_context: ssl.SSLContext | None = None) -> AsyncIterator[int]:
    """An aiohttp app answering every POST with `handler`; yields its port on 127.0.0.1."""
    app = web.Application()
    app.router.add_route("POST", "/{tail:.*}", handler)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, ssl_context=ssl_context)
    await site.start()
    try:
        yield site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    finally:
        await runner.cleanup()


class ForwardProxy:
    """An HTTP proxy: absolute-form requests are forwarded one by one, CONNECT opens a tunnel.
    `seen` lists each request line it received."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            line = head.split(b"\r\n", 1)[0].decode()
            self.seen.append(line)
            if line.startswith("CONNECT "):
                await self._tunnel(line.split()[1], reader, writer)
            else:
                await self._forward(head, reader, writer)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    async def _tunnel(self, target: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        host, port = target.rsplit(":", 1)
        up_reader, up_writer = await asyncio.open_connection(host, int(port))
        writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
        await pipe_both(reader, writer, up_reader, up_writer)

    async def _forward(self, head: bytes, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Each request on the connection, rewritten to origin form, over one upstream connection."""
        up_reader = up_writer = None
        while head:
            method, url, version = head.split(b"\r\n", 1)[0].split(b" ")
            authority, _, path = url.split(b"://", 1)[1].partition(b"/")
            if up_writer is None:
                host, port = authority.decode().rsplit(":", 1)
                up_reader, up_writer = await asyncio.open_connection(host, int(port))
            rest = head.split(b"\r\n", 1)[1]
            body = await reader.readexactly(content_length(rest))
            up_writer.write(b"%s /%s %s\r\n%s%s" % (method, path, version, rest, body))
            assert up_reader is not None
            response = await up_reader.readuntil(b"\r\n\r\n")
            writer.write(response + await up_reader.readexactly(content_length(response)))
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            self.seen.append(head.split(b"\r\n", 1)[0].decode())


class Socks5Proxy:
    """A SOCKS5 proxy without authentication; `targets` lists where it connected."""

    def __init__(self) -> None:
        self.targets: list[str] = []

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            _, methods = await reader.readexactly(2)
            await reader.readexactly(methods)
            writer.write(b"\x05\x00")
            _, command, _, kind = await reader.readexactly(4)
            assert command == 1, "only CONNECT"
            if kind == 1:
                host = str(ipaddress.IPv4Address(await reader.readexactly(4)))
            else:
                host = (await reader.readexactly((await reader.readexactly(1))[0])).decode()
            port = int.from_bytes(await reader.readexactly(2), "big")
            self.targets.append(f"{host}:{port}")
            up_reader, up_writer = await asyncio.open_connection(host, port)
            writer.write(b"\x05\x00\x00\x01" + bytes(4) + bytes(2))
            await pipe_both(reader, writer, up_reader, up_writer)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


@asynccontextmanager
async def listening(
    handle: Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]],
) -> AsyncIterator[int]:
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        server.close()


@contextmanager
def in_a_thread(handle: Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]) -> Iterator[int]:
    """`listening`, in a loop of its own in a daemon thread (for code that runs its own loop)."""
    loop = asyncio.new_event_loop()
    started = threading.Event()
    ports: list[int] = []

    async def serve_forever() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        ports.append(server.sockets[0].getsockname()[1])
        started.set()
        async with server:
            with contextlib.suppress(asyncio.CancelledError):  # the way the block below stops it
                await server.serve_forever()

    thread = threading.Thread(target=lambda: loop.run_until_complete(serve_forever()), daemon=True)
    thread.start()
    started.wait(10)
    try:
        yield ports[0]
    finally:
        for task in asyncio.all_tasks(loop):
            loop.call_soon_threadsafe(task.cancel)
        thread.join(5)


async def pipe_both(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    up_reader: asyncio.StreamReader,
    up_writer: asyncio.StreamWriter,
) -> None:
    async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        try:
            while data := await source.read(65536):
                sink.write(data)
                await sink.drain()
        except ConnectionError:
            pass
        finally:
            sink.close()

    await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))


def content_length(head: bytes) -> int:
    for line in head.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return 0


def private_ca(directory: Path, host: str = "localhost") -> tuple[Path, ssl.SSLContext]:
    """A CA certificate (written to directory/ca.pem) and a server context with a certificate for
    `host` only, signed by that CA."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.UTC)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "statebox test CA")])
    ca = (
        x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(True, False, False, False, False, True, True, False, False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )  # fmt: skip
    leaf = (
        x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)]))
        .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(host)]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )  # fmt: skip
    pem = serialization.Encoding.PEM
    ca_file, cert_file, key_file = directory / "ca.pem", directory / "server.pem", directory / "server.key"
    ca_file.write_bytes(ca.public_bytes(pem))
    cert_file.write_bytes(leaf.public_bytes(pem))
    key_file.write_bytes(key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert_file, key_file)
    return ca_file, context


def reply_bytes() -> bytes:
    return json.dumps(REPLY).encode()
