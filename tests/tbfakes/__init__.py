"""Test doubles for ThinkingBox-Bench: a generated fake checkout and its protocol-speaking server.

They live with the tests (tests/ is on sys.path, so tests import `tbfakes`; the benchmarks add
tests/ to their path): the engine never imports them, and the wheel does not ship them.
"""

from tbfakes.checkout import (
    CONSULTING,
    CONSULTING_FILE,
    RETAIL,
    RETAIL_FILE,
    RUBRIC_FILE,
    SERVER_SOURCES,
    FakeCheckout,
    make_fake_checkout,
)
from tbfakes.isolation import require_isolation

__all__ = [
    "CONSULTING",
    "CONSULTING_FILE",
    "RETAIL",
    "RETAIL_FILE",
    "RUBRIC_FILE",
    "SERVER_SOURCES",
    "FakeCheckout",
    "make_fake_checkout",
    "require_isolation",
]
