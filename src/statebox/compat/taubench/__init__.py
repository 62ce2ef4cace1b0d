"""τ-bench (sierra-research/tau-bench), run unchanged from a user's checkout.

- `TauCheckout`: the checkout as data (tasks files read as literals, policies).
- `server/statebox_tau_server.py`: statebox's MCP server over τ-bench's own tools, data and reward, run in
  the τ-bench Python behind statebox's launcher (`launch.py`), reserved calls in `protocol.py`.
- `TauSuite` / `load_tau_suite`: a split's tasks as statebox tasks; `TauSource` runs their attempts
  (a `TauBackend` each); `validate_tau_suite` checks references, no-op, necessity and the audit.
- `TauBench`: the suite provider (`statebox.suites` entry point); `TauImporter`: `statebox import tau-bench`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from statebox.lazy import lazy_attributes

if TYPE_CHECKING:
    from statebox.compat.taubench.backend import TauBackend, TauRuntime
    from statebox.compat.taubench.checkout import TauCheckout
    from statebox.compat.taubench.errors import TauFormatError
    from statebox.compat.taubench.provider import TauBench
    from statebox.compat.taubench.source import TauSource
    from statebox.compat.taubench.suite import TauSuite, load_tau_suite
    from statebox.compat.taubench.task import TauBenchTask

# Loaded on first use: the provider's entry point is read by every `statebox` command.
_PARTS = {
    "TauBackend": "backend",
    "TauRuntime": "backend",
    "TauCheckout": "checkout",
    "TauFormatError": "errors",
    "TauBench": "provider",
    "TauSource": "source",
    "TauSuite": "suite",
    "load_tau_suite": "suite",
    "TauBenchTask": "task",
}

__getattr__ = lazy_attributes(__name__, _PARTS)

__all__ = [
    "TauBackend",
    "TauBench",
    "TauBenchTask",
    "TauCheckout",
    "TauFormatError",
    "TauRuntime",
    "TauSource",
    "TauSuite",
    "load_tau_suite",
]
