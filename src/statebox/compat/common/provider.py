"""The option checks and the validation run both benchmarks' suite providers share.

Light on purpose: the providers are read by every `statebox` command, so nothing here starts an event
loop or loads a model client until a validation runs.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from statebox.suites.provider import SuiteError

R = TypeVar("R")

SERVING = frozenset({"serve", "proxy", "openenv-serve"})  # the commands that host attempts for outside agents
SERVERS = frozenset({"run", "validate"}) | SERVING  # the commands that start the tool servers


def checkout_folder(suite: str, data: Any, usage: str, what: str) -> Path:
    """`--data` as the folder of the benchmark's checkout; `usage` names the option's value (DIR, PATH),
    `what` says what the folder holds."""
    if data is None:
        raise SuiteError(f"{suite} needs --data {usage}: {what}")
    folder = Path(data)
    if not folder.is_dir():
        raise SuiteError(f"--data {folder}: no such directory (expected {what})")
    return folder


def checked_python(named: str | None, default: str) -> str:
    """`--server-python`: the absolute path of the executable it names (looked up on PATH), else `default`."""
    if named is None:
        return default
    found = shutil.which(named)
    if found is None:
        raise SuiteError(f"--server-python {named}: not an executable Python")
    return os.path.abspath(found)


def run_validation(check: Coroutine[Any, Any, R]) -> R:
    """Run a suite's validation to its end; a campaign's set-up failing is the suite's error."""
    import asyncio  # here, not at the top: listing suites and tasks starts without an event loop

    from statebox.runner.errors import CampaignError  # and without the model clients it names

    try:
        return asyncio.run(check)
    except CampaignError as e:
        raise SuiteError(str(e)) from None
