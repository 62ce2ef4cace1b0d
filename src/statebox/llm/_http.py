"""JSON over HTTP, and what a failed request means (retry, configuration, context).

No SDK sits in the request path: a request body is bytes the adapter wrote, a reply is the
parsed JSON object. Every failure becomes an EndpointFailure for the retry loop.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Unpack

import aiohttp

from ._transport import RedirectRefused, RequestTimeout, ResponseTooLarge, Transport, TransportSettings
from .retry import ContextWindowExceeded, EndpointFailure, MalformedResponse, retry_after_from_headers

CONFIGURATION_STATUSES = frozenset({401, 403, 404})  # a bad key, no access, no such model or URL
# What OpenAI-compatible servers (OpenAI, vLLM, LiteLLM, ...) and Anthropic say when the prompt
# does not fit the model's context window.
_OVERFLOW_CODES = frozenset({"context_length_exceeded"})
_OVERFLOW_PHRASES = (
    "maximum context length",
    "context length",
    "context window",
    "prompt is too long",
    "exceed context limit",
    "input is too long",  # Bedrock
    "too many input tokens",
    "exceeds the maximum number of tokens",  # Gemini
)
_QUOTED = 200  # characters of a response body quoted in an error message


class HttpStatusError(Exception):
    """The endpoint answered with an error status."""

    def __init__(self, status: int, headers: Mapping[str, str], body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body
        super().__init__(f"HTTP {status}")


class JsonEndpoint:
    """POST JSON bodies to one URL over kept-alive connections; the reply must be a JSON object."""

    def __init__(self, url: str, headers: dict[str, str], **settings: Unpack[TransportSettings]) -> None:
        self.url = url
        headers = {"content-type": "application/json", "accept": "application/json", **headers}
        self._http = Transport(url, headers, **settings)

    async def post(self, body: bytes, extra_headers: Mapping[str, str] | None = None) -> dict[str, Any]:
        response = await self._http.post(body, extra_headers)
        if response.status >= 400:
            raise HttpStatusError(response.status, response.headers, response.content)
        return parse_reply(response.content)

    async def aclose(self) -> None:
        await self._http.aclose()


def parse_reply(content: bytes) -> dict[str, Any]:
    """A 2xx body as a JSON object; anything else is MalformedResponse (retried like a 5xx)."""
    if not content.strip():
        raise MalformedResponse("the response body is empty")
    try:
        data = json.loads(content)
    except ValueError:
        raise MalformedResponse(f"the response is not JSON: {quote(content)}") from None
    if not isinstance(data, dict):
        raise MalformedResponse(f"the response is not a JSON object: {quote(content)}")
    return data


def classify(exc: Exception, timeout_s: float) -> EndpointFailure | None:
    """What a failed request means; None for exceptions that are not endpoint failures."""
    if isinstance(exc, ContextWindowExceeded):
        return EndpointFailure(status=200, message=str(exc), retryable=False, kind="context_overflow")
    if isinstance(exc, MalformedResponse):
        return EndpointFailure(status=200, message=str(exc))
    if isinstance(exc, HttpStatusError):
        return status_failure(exc.status, exc.headers, exc.body)
    if isinstance(exc, RedirectRefused):
        return EndpointFailure(exc.status, str(exc), retryable=False, kind="configuration")
    if isinstance(exc, ResponseTooLarge):
        return EndpointFailure(status=200, message=str(exc), retryable=False)
    if isinstance(exc, aiohttp.ClientConnectorCertificateError):  # every attempt would fail the same way
        reason = one_line(str(exc.certificate_error))
        message = f"the TLS certificate was not accepted: {reason} (a private CA goes in SSL_CERT_FILE)"
        return EndpointFailure(None, message, retryable=False, kind="configuration")
    if isinstance(exc, RequestTimeout | aiohttp.ServerTimeoutError):
        return EndpointFailure(status=None, message=f"request timed out after {timeout_s:g} s")
    if isinstance(exc, aiohttp.ClientError | OSError):
        return EndpointFailure(status=None, message=f"connection failed: {one_line(repr(exc))}")
    return None


def status_failure(status: int, headers: Mapping[str, str], body: bytes) -> EndpointFailure:
    """An error status: retried if 408, 429 or 5xx; 401/403/404 are configuration errors."""
    message, code = error_details(body)
    if status in CONFIGURATION_STATUSES:
        return EndpointFailure(status, message, retryable=False, kind="configuration")
    if status in (400, 413, 422) and is_context_overflow(message, code):
        return EndpointFailure(status, message, retryable=False, kind="context_overflow")
    return EndpointFailure.from_status(status, message, retry_after_from_headers(headers))


def error_details(body: bytes) -> tuple[str, str | None]:
    """(message, code) of an error body: `{"error": {"message", "code"|"type"}}` or text."""
    try:
        data = json.loads(body) if body.strip() else None
    except ValueError:
        data = None
    error = data.get("error", data) if isinstance(data, dict) else None
    if isinstance(error, dict):
        message = error.get("message") or error.get("detail")
        code = error.get("code") or error.get("type")
        if isinstance(message, str) and message:
            return one_line(message), code if isinstance(code, str) else None
    if isinstance(error, str) and error:
        return one_line(error), None
    return (quote(body) if body.strip() else "(empty body)"), None


def is_context_overflow(message: str, code: str | None) -> bool:
    lowered = message.lower()
    return code in _OVERFLOW_CODES or any(phrase in lowered for phrase in _OVERFLOW_PHRASES)


def one_line(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= 2 * _QUOTED else flat[: 2 * _QUOTED] + "..."


def quote(content: bytes) -> str:
    """A short, one-line rendering of a body for an error message."""
    text = content[:_QUOTED].decode("utf-8", errors="replace")
    more = "..." if len(content) > _QUOTED else ""
    return repr(" ".join(text.split()) + more)
