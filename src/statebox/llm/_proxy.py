"""Which proxy the environment routes a URL through, and the connector that reaches it.

The usual variables, as curl and the SDKs read them: HTTPS_PROXY / HTTP_PROXY for their scheme,
else ALL_PROXY, minus the hosts NO_PROXY names (either case of each name). An http:// proxy is
handed to aiohttp per request; a socks4/socks5 proxy needs the optional `aiohttp-socks`, whose
connector replaces aiohttp's own. Decided once, when the client is built.
"""

from __future__ import annotations

import importlib
import ssl
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import aiohttp

SOCKS_SCHEMES = ("socks4", "socks4a", "socks5", "socks5h")
ProxyKind = Literal["http", "socks"]


@dataclass(frozen=True)
class ProxyRoute:
    """A proxy for one target URL: `kind` http (CONNECT for https targets) or socks."""

    kind: ProxyKind
    url: str

    def shown(self) -> str:
        """The proxy URL without its password, for messages."""
        parts = urllib.parse.urlsplit(self.url)
        host = parts.hostname or ""
        netloc = host + (f":{parts.port}" if parts.port else "")
        return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def proxy_for(url: str) -> ProxyRoute | None:
    """The environment's proxy for `url`, or None (none set, or NO_PROXY names the host)."""
    target = urllib.parse.urlsplit(url)
    proxies = urllib.request.getproxies_environment()
    chosen = proxies.get(target.scheme) or proxies.get("all")
    bypass = urllib.request.proxy_bypass_environment  # type: ignore[attr-defined]  # public, not in typeshed
    if not chosen or bypass(target.hostname or "", proxies):
        return None
    if "://" not in chosen:
        chosen = "http://" + chosen  # `HTTPS_PROXY=host:3128`, as curl reads it
    scheme = urllib.parse.urlsplit(chosen).scheme.lower()
    if scheme in SOCKS_SCHEMES:
        return ProxyRoute("socks", chosen)
    if scheme != "http":
        raise ValueError(
            f"the proxy {chosen!r} for {url} has scheme {scheme!r}: statebox reaches http:// proxies "
            f"and, with aiohttp-socks installed, {'/'.join(SOCKS_SCHEMES)}:// ones"
        )
    return ProxyRoute("http", chosen)


def connector(route: ProxyRoute | None, *, limit: int, ssl_context: ssl.SSLContext | bool) -> aiohttp.BaseConnector:
    """aiohttp's TCP connector, or aiohttp-socks' for a SOCKS route (ValueError in one line without it)."""
    import aiohttp

    if route is None or route.kind == "http":
        return aiohttp.TCPConnector(limit=limit, ssl=ssl_context)
    socks = _aiohttp_socks(route)
    url = route.url
    remote_dns = url.lower().startswith(("socks5h:", "socks4a:"))
    if remote_dns:  # python-socks names the scheme socks5/socks4 and takes remote DNS as a flag
        url = url.replace("socks5h:", "socks5:", 1).replace("socks4a:", "socks4:", 1)
    made: aiohttp.BaseConnector = socks.ProxyConnector.from_url(url, rdns=remote_dns, limit=limit, ssl=ssl_context)
    return made


def require_socks(route: ProxyRoute) -> None:
    """Refuse a SOCKS route now, in one line, when aiohttp-socks is missing."""
    _aiohttp_socks(route)


def _aiohttp_socks(route: ProxyRoute) -> Any:
    try:
        return importlib.import_module("aiohttp_socks")
    except ImportError:
        raise ValueError(
            f"the environment sends model requests through the SOCKS proxy {route.shown()}, which needs "
            "the optional package aiohttp-socks: pip install 'statebox[socks]' (or unset ALL_PROXY / HTTPS_PROXY)"
        ) from None
