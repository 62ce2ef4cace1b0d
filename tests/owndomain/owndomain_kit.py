"""What the owndomain tests share: the `statebox` executable, as a user runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

STATEBOX = str(Path(sys.executable).with_name("statebox"))
NAME = "acme_support"


def statebox(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The real command, as a user runs it."""
    return subprocess.run([STATEBOX, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=300)
