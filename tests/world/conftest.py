"""Every world test runs on both ways a session is restored: copy-on-write over the baseline image
(the statebox-cow VFS) and the fallback that copies the whole image (STATEBOX_COW=0)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from statebox.world import cow


@pytest.fixture(autouse=True, params=["cow", "copy"])
def restore(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if request.param == "cow" and not cow.available():
        pytest.skip(cow.status())
    monkeypatch.setenv(cow.ENV, "1" if request.param == "cow" else "0")
    yield request.param
