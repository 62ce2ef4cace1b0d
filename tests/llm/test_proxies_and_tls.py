"""Proxies from the environment and TLS trust, on loopback: an HTTP proxy (forwarding and CONNECT),
a SOCKS5 proxy through aiohttp-socks, NO_PROXY, a private CA in SSL_CERT_FILE, a wrong host name."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from statebox.llm import ConfigurationError, Message, RetryPolicy, make_client

from .loopback import ForwardProxy, Socks5Proxy, listening, private_ca, serve

pytestmark = pytest.mark.anyio

HI = [Message(role="user", content="Hi")]
RETRY = RetryPolicy(max_retries=0, timeout_s=10.0)
PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY")
HAS_SOCKS = importlib.util.find_spec("aiohttp_socks") is not None


@pytest.fixture(autouse=True)
def no_proxy_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)


async def ask(base_url: str) -> str:
    async with make_client("openai:m", base_url=base_url, retry=RETRY) as client:
        return (await client.complete(HI)).text


async def test_http_proxy_from_the_environment_carries_the_requests(monkeypatch: pytest.MonkeyPatch):
    proxy = ForwardProxy()
    async with serve() as port, listening(proxy.handle) as proxy_port:
        monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{proxy_port}")
        async with make_client("openai:m", base_url=f"http://127.0.0.1:{port}/v1", retry=RETRY) as client:
            texts = [(await client.complete(HI)).text for _ in range(2)]

    assert texts == ["ok", "ok"]
    assert proxy.seen[:2] == [f"POST http://127.0.0.1:{port}/v1/chat/completions HTTP/1.1"] * 2, proxy.seen


async def test_no_proxy_sends_the_named_host_direct(monkeypatch: pytest.MonkeyPatch):
    proxy = ForwardProxy()
    async with serve() as port, listening(proxy.handle) as proxy_port:
        monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{proxy_port}")
        monkeypatch.setenv("NO_PROXY", "localhost,127.0.0.1")
        assert await ask(f"http://127.0.0.1:{port}/v1") == "ok"

    assert proxy.seen == []


async def test_an_https_proxy_variable_tunnels_https_with_connect(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    ca_file, server_tls = private_ca(tmp_path)
    proxy = ForwardProxy()
    async with serve(ssl_context=server_tls) as port, listening(proxy.handle) as proxy_port:
        monkeypatch.setenv("SSL_CERT_FILE", str(ca_file))
        monkeypatch.setenv("HTTPS_PROXY", f"127.0.0.1:{proxy_port}")  # no scheme: read as http://, as curl does
        assert await ask(f"https://localhost:{port}/v1") == "ok"

    assert proxy.seen == [f"CONNECT localhost:{port} HTTP/1.1"]


@pytest.mark.skipif(not HAS_SOCKS, reason="aiohttp-socks is not installed (the dev extra installs it)")
async def test_a_socks5_proxy_carries_the_requests_through_aiohttp_socks(monkeypatch: pytest.MonkeyPatch):
    proxy = Socks5Proxy()
    async with serve() as port, listening(proxy.handle) as proxy_port:
        monkeypatch.setenv("ALL_PROXY", f"socks5://127.0.0.1:{proxy_port}")
        assert await ask(f"http://127.0.0.1:{port}/v1") == "ok"

    assert proxy.targets == [f"127.0.0.1:{port}"]


def test_a_socks_proxy_without_aiohttp_socks_is_one_clear_line(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(sys.modules, "aiohttp_socks", None)  # as if it were not installed
    monkeypatch.setenv("ALL_PROXY", "socks5://user:secret@127.0.0.1:1080")

    with pytest.raises(ValueError) as caught:
        make_client("openai:m", base_url="http://10.9.8.7:8000/v1")

    message = str(caught.value)
    assert "aiohttp-socks" in message and "socks5://127.0.0.1:1080" in message and "\n" not in message
    assert "secret" not in message


async def test_tls_with_a_private_ca_in_ssl_cert_file_passes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    ca_file, server_tls = private_ca(tmp_path)
    async with serve(ssl_context=server_tls) as port:
        monkeypatch.setenv("SSL_CERT_FILE", str(ca_file))
        assert await ask(f"https://localhost:{port}/v1") == "ok"


async def test_tls_to_a_host_name_the_certificate_does_not_name_is_a_configuration_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    ca_file, server_tls = private_ca(tmp_path, host="localhost")
    async with serve(ssl_context=server_tls) as port:
        monkeypatch.setenv("SSL_CERT_FILE", str(ca_file))
        with pytest.raises(ConfigurationError) as caught:
            await ask(f"https://127.0.0.1:{port}/v1")  # the certificate names localhost only

    message = str(caught.value)
    assert "TLS certificate was not accepted" in message and "mismatch" in message.lower(), message
    assert caught.value.attempts == 1


async def test_tls_without_the_private_ca_is_refused(tmp_path: Path):
    _, server_tls = private_ca(tmp_path)
    async with serve(ssl_context=server_tls) as port:
        with pytest.raises(ConfigurationError, match="certificate verify failed"):
            await ask(f"https://localhost:{port}/v1")


def test_an_ssl_cert_file_that_does_not_exist_is_refused_at_build(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("SSL_CERT_FILE", "/nonexistent/ca.pem")

    with pytest.raises(ValueError, match=r"SSL_CERT_FILE=/nonexistent/ca\.pem is not a file"):
        make_client("openai:m", base_url="https://localhost:8443/v1")
