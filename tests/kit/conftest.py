from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from kitdemo import DOMAIN

from statebox.tasks import Suite, load_task_dir


@pytest.fixture(scope="module")
def suite() -> Suite:
    return Suite("kitdemo", load_task_dir(DOMAIN.task_dir, "kitdemo"), {"kitdemo": DOMAIN})
