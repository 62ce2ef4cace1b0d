"""statebox as an Inspect AI task (the optional extra `statebox[inspect]`).

`statebox_task(suite)` builds the task (`open_thinkingbox(data, server_python)` opens ThinkingBox-Bench for
it); the solver, scorer, reducer and metric are exported for composing your own. Importing this package
needs `inspect-ai` installed.
"""

from __future__ import annotations

try:
    import inspect_ai  # noqa: F401
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("statebox's Inspect task needs Inspect AI: pip install 'statebox[inspect]'") from e

from statebox.integrations.inspect_task.model_client import InspectModelClient
from statebox.integrations.inspect_task.scorer import pass_hat_k, pass_tally, statebox_judge
from statebox.integrations.inspect_task.solver import TRIAL_KEY, statebox_attempt
from statebox.integrations.inspect_task.tasks import statebox_task
from statebox.integrations.inspect_task.thinkingbox import open_thinkingbox

__all__ = [
    "TRIAL_KEY",
    "InspectModelClient",
    "open_thinkingbox",
    "pass_hat_k",
    "pass_tally",
    "statebox_attempt",
    "statebox_judge",
    "statebox_task",
]
