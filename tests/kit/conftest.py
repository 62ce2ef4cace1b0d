from __future__ import annotations

import pytest

from kitdemo import DOMAIN
from statebox.suites import Suite
from statebox.tasks import load_task_dir


@pytest.fixture(scope="module")
def suite() -> Suite:
    return Suite("kitdemo", load_task_dir(DOMAIN.task_dir, "kitdemo"), {"kitdemo": DOMAIN})
