"""ThinkingBox-Bench opened for an Inspect task, through its suite provider as `statebox run` opens it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from statebox.integrations.inspect_task.errors import TaskArgumentError
from statebox.runner.taskset import TaskSet
from statebox.suites.provider import SuiteError, provider_for, suite_providers

SUITE = "thinkingbox-bench"


def open_thinkingbox(
    data: str | Path,
    server_python: str | None = None,
    *,
    test_list: str | Path | None = None,
    fork: bool = True,
    typesense: str | None = None,
) -> TaskSet:
    """The benchmark's tasks from the checkout `data` (`TaskArgumentError` naming the option for a bad one)."""
    options: dict[str, Any] = {
        "data": Path(data),
        "server_python": server_python,
        "fork": fork,
        "typesense": typesense,
        "unsafe_custom_checks": False,  # custom checks run isolated, as `statebox run` runs them by default
    }
    try:
        provider = provider_for(SUITE, suite_providers())
        return provider.open(SUITE, options, None, Path(test_list) if test_list is not None else None)
    except (SuiteError, LookupError) as e:
        raise TaskArgumentError(f"statebox/thinkingbox_bench: {e}") from None
