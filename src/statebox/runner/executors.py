"""Plug-in executors: where a campaign's attempts run when not in this machine's processes.

An executor registers under the `statebox.executors` entry-point group as a callable
`run(campaign, items, advance) -> result`, like the `--workers` process executor; the runner never
imports one by name (Ray's is `statebox.integrations.ray_executor:run_on_ray`).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from statebox.runner.errors import CampaignError

GROUP = "statebox.executors"


class ExecutorUnavailable(CampaignError):
    """The executor is not installed, or its optional dependency is missing."""


def load_executor(name: str) -> Callable[..., Any]:
    """The registered executor `name`; a missing one (or its missing extra) is one clear error."""
    found = [ep for ep in entry_points(group=GROUP) if ep.name == name]
    if not found:
        known = sorted(ep.name for ep in entry_points(group=GROUP))
        raise ExecutorUnavailable(f"no executor {name!r} is installed (installed: {', '.join(known) or 'none'})")
    run: Callable[..., Any] = found[0].load()
    return run
