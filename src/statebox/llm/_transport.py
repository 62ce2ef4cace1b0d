"""POSTing pre-encoded JSON bodies to one URL over aiohttp, with the limits a model client needs.

Decided when the client is built, so that a bad setting fails before any attempt: the URL, the
header values (no line breaks: a key with CR/LF in it would forge headers), the proxy from the
environment, the TLS trust (the system's CA store, or SSL_CERT_FILE / SSL_CERT_DIR). Per request:
connect, read and total timeouts, gzip/deflate replies, no redirects (a model endpoint that
redirects a POST is a wrong base URL), and a cap on the body's size, counted as it arrives.

aiohttp sessions belong to an event loop: one is opened on first use in each loop (a campaign
runs one loop per process), so a client can be built before the loop exists.
"""

from __future__ import annotations

import asyncio
import os
import re
import ssl
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, NotRequired, TypedDict, Unpack

if TYPE_CHECKING:  # aiohttp (~80 ms to import) is imported when the first transport is made, not with the package
    import aiohttp

from ._proxy import ProxyRoute, connector, proxy_for, require_socks

MIB = 1 << 20
# A header name is an RFC 9110 token; a value may hold any visible character, spaces and tabs.
_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
_BAD_VALUE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")

Signer = Callable[[bytes], Mapping[str, str]]  # headers computed per request from its body (SigV4, tokens)


@dataclass(frozen=True)
class HttpOptions:
    """Transport limits. `read_timeout_s` bounds each wait for bytes (None: the total timeout)."""

    connect_timeout_s: float = 10.0
    read_timeout_s: float | None = None
    max_response_bytes: int = 64 * MIB


@dataclass(frozen=True)
class RawResponse:
    status: int
    headers: Mapping[str, str]  # case-insensitive
    content: bytes


class RequestTimeout(Exception):
    """The whole request took longer than the total timeout."""


class ResponseTooLarge(Exception):
    """The response body passed the size cap; reading stopped there."""


class RedirectRefused(Exception):
    """The endpoint answered a POST with a redirect: the base URL is not the API's."""

    def __init__(self, status: int, url: str, location: str | None) -> None:
        self.status = status
        where = f" to {location}" if location else ""
        super().__init__(f"{url} redirects (HTTP {status}){where}: give the API's own URL as the base URL")


class TransportSettings(TypedDict):
    """How a Transport (and the JsonEndpoint over it) sends: the whole call's timeout, the connection limit,
    the HTTP options and a signer of each request (both optional)."""

    timeout_s: float
    max_connections: int
    options: NotRequired[HttpOptions | None]
    signer: NotRequired[Signer | None]


class Transport:
    """POST bytes to one URL; at most `max_connections` connections, kept alive as the server allows."""

    def __init__(self, url: str, headers: Mapping[str, str], **settings: Unpack[TransportSettings]) -> None:
        import aiohttp
        import yarl

        timeout_s, options = settings["timeout_s"], settings.get("options")

        self.url = check_url(url)
        self._target = yarl.URL(url, encoded=True)  # sent as written: a signed path must not be re-quoted
        self._headers = checked_headers(headers)
        self._options = options or HttpOptions()
        self._timeout_s = timeout_s
        self._limit = settings["max_connections"]
        self._signer = settings.get("signer")
        self._proxy: ProxyRoute | None = proxy_for(url)
        self._ssl: ssl.SSLContext | bool = tls_context() if url.startswith("https:") else False
        if self._proxy is not None and self._proxy.kind == "socks":
            require_socks(self._proxy)
        read = self._options.read_timeout_s or timeout_s
        self._timeout = aiohttp.ClientTimeout(total=None, sock_connect=self._options.connect_timeout_s, sock_read=read)
        self._session: aiohttp.ClientSession | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def post(self, body: bytes, extra_headers: Mapping[str, str] | None = None) -> RawResponse:
        headers = dict(self._headers)
        if extra_headers:
            headers.update(extra_headers)
        if self._signer is not None:
            headers.update(self._signer(body))
        try:
            async with asyncio.timeout(self._timeout_s) as deadline:
                return await self._send(body, headers)
        except TimeoutError:
            if deadline.expired():
                raise RequestTimeout(f"no response within {self._timeout_s:g} s") from None
            raise

    async def aclose(self) -> None:
        session, self._session = self._session, None
        if session is not None and self._loop is asyncio.get_running_loop():
            await session.close()

    async def _send(self, body: bytes, headers: dict[str, str]) -> RawResponse:
        session = self._session_for(asyncio.get_running_loop())
        proxy = self._proxy.url if self._proxy is not None and self._proxy.kind == "http" else None
        async with session.post(
            self._target, data=body, headers=headers, proxy=proxy, allow_redirects=False
        ) as response:
            if 300 <= response.status < 400 and response.status != 304:
                raise RedirectRefused(response.status, self.url, response.headers.get("location"))
            content = await self._read(response)
            return RawResponse(response.status, response.headers, content)

    async def _read(self, response: aiohttp.ClientResponse) -> bytes:
        """The (decompressed) body, stopped as soon as it passes the cap."""
        cap = self._options.max_response_bytes
        declared = response.content_length
        if declared is not None and declared > cap and not response.headers.get("content-encoding"):
            raise ResponseTooLarge(self._too_large(f"declares {declared:,} bytes"))
        parts: list[bytes] = []
        size = 0
        while chunk := await response.content.readany():
            size += len(chunk)
            if size > cap:
                response.close()  # the connection is dropped, not drained
                raise ResponseTooLarge(self._too_large(f"passed {size:,} bytes"))
            parts.append(chunk)
        return parts[0] if len(parts) == 1 else b"".join(parts)

    def _too_large(self, what: str) -> str:
        cap = self._options.max_response_bytes
        return f"the response body {what}, over the {cap / MIB:g} MiB cap; reading stopped"

    def _session_for(self, loop: asyncio.AbstractEventLoop) -> aiohttp.ClientSession:
        import aiohttp

        if self._session is None or self._loop is not loop:
            if self._session is not None:
                self._session.detach()  # its loop is gone; its connections went with it
            self._session = aiohttp.ClientSession(
                connector=connector(self._proxy, limit=self._limit, ssl_context=self._ssl),
                timeout=self._timeout,
                cookie_jar=aiohttp.DummyCookieJar(),  # an API's cookies are no state of ours
                skip_auto_headers=("User-Agent",),
                headers={"user-agent": "statebox"},
            )
            self._loop = loop
        return self._session


def check_url(url: str) -> str:
    parsed = urllib.parse.urlsplit(url)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise ValueError(f"not an http(s) URL: {url!r}")
    return url


def checked_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """The headers, or ValueError naming the first bad one (never quoting a value: it may be a key)."""
    for name, value in headers.items():
        if not _TOKEN.match(name):
            raise ValueError(f"the header name {name!r} is not a valid HTTP header name")
        if _BAD_VALUE.search(value):
            raise ValueError(
                f"the {name} header's value holds a line break or another control character "
                "(often a key pasted with its newline)"
            )
    return dict(headers)


def tls_context() -> ssl.SSLContext:
    """Verification against SSL_CERT_FILE / SSL_CERT_DIR when set, else the system's CA store."""
    cafile, capath = os.environ.get("SSL_CERT_FILE") or None, os.environ.get("SSL_CERT_DIR") or None
    if cafile is not None and not os.path.isfile(cafile):
        raise ValueError(f"SSL_CERT_FILE={cafile} is not a file")
    if capath is not None and not os.path.isdir(capath):
        raise ValueError(f"SSL_CERT_DIR={capath} is not a directory")
    try:
        return ssl.create_default_context(cafile=cafile, capath=capath)
    except ssl.SSLError as exc:
        raise ValueError(f"SSL_CERT_FILE={cafile}: no certificate could be read from it ({exc.reason})") from None
