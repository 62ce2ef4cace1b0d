"""Where the server finds the token in an Authorization header: a bearer token, or the password of Basic
credentials (what OpenEnv's clients send for a base URL `http://user:TOKEN@host`); anything else is none."""

from __future__ import annotations

import base64

import pytest

from statebox.openenv.server import presented_token


def basic(credentials: str) -> str:
    return "Basic " + base64.b64encode(credentials.encode()).decode()


@pytest.mark.parametrize(
    ("header", "token"),
    [
        ("Bearer s3cret", "s3cret"),
        ("bearer  s3cret ", "s3cret"),
        (basic("statebox:s3cret"), "s3cret"),
        (basic("anyone:s3:cr%et@x"), "s3:cr%et@x"),  # the password runs past further colons, taken as sent
        (basic("statebox:"), ""),
        (basic("no-colon"), None),
        ("Basic not base64!", None),
        ("Basic " + base64.b64encode(b"u:\xff").decode(), None),  # not UTF-8
        ("Digest s3cret", None),
        ("", None),
    ],
)
def test_the_token_is_a_bearer_token_or_the_basic_password(header: str, token: str | None) -> None:
    assert presented_token(header) == token
