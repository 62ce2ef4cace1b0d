"""`statebox run --executor ray`: a campaign's attempts on Ray workers (the optional extra `statebox[ray]`).

The driver (the `statebox run` process) alone writes the run directory; workers only run attempts
and hand back their records. Importing this package needs `ray` installed.
"""

from __future__ import annotations

from statebox.runner.errors import CampaignError

try:
    import ray  # noqa: F401
except ImportError:  # pragma: no cover - depends on the environment
    raise CampaignError("--executor ray needs Ray: pip install 'statebox[ray]'") from None

from statebox.integrations.ray_executor.driver import run_on_ray

__all__ = ["run_on_ray"]
