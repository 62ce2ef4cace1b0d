"""The isolation layer custom-check tests run in: bubblewrap, which `make test` installs (`make sandbox`).

Where it is missing a test skips saying so; under CI (`CI` set) it fails instead, so that the
escape tests can never pass by not running.
"""

from __future__ import annotations

import os

import pytest

from statebox.compat.thinkingbox.custom_check_isolation import Isolation, IsolationUnavailable, find_isolation


def require_isolation() -> Isolation:
    """bubblewrap's isolation, or a skip (a failure under CI) naming what is missing."""
    try:
        return find_isolation(unsafe=False)
    except IsolationUnavailable as e:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the custom-check sandbox tests: {e}")
        pytest.skip(str(e))
