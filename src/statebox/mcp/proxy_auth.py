"""Who may use the proxy's operator API, and where the proxy may listen."""

from __future__ import annotations

import hmac
import ipaddress
import os

from starlette.requests import Request
from starlette.responses import JSONResponse

from statebox.mcp.errors import InsecureBindError

TOKEN_ENV = "STATEBOX_TOKEN"


def resolve_token(token: str | None) -> str | None:
    """The explicit token, else `$STATEBOX_TOKEN`; an empty string means no token."""
    chosen = token if token is not None else os.environ.get(TOKEN_ENV)
    return chosen or None


def is_loopback(host: str) -> bool:
    """Whether `host` names only this machine (127.0.0.0/8, ::1 or localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    """Refuse to expose attempts beyond this machine without a token."""
    if token is None and not is_loopback(host):
        raise InsecureBindError(
            f"refusing to listen on {host!r} without a token: anyone who can reach it could "
            f"create and read attempts. Set --token or ${TOKEN_ENV}, or bind 127.0.0.1."
        )


def unauthorized(request: Request, token: str | None) -> JSONResponse | None:
    """A 401 response when the request lacks the right bearer token, else None."""
    if token is None:
        return None
    scheme, _, presented = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not presented:
        message = "missing token: send 'Authorization: Bearer <token>'"
    elif not hmac.compare_digest(presented.strip().encode(), token.encode()):
        message = "invalid token"
    else:
        return None
    return JSONResponse({"error": message}, status_code=401, headers={"WWW-Authenticate": "Bearer"})
