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

from statebox.lazy import lazy_facade

# Loaded on first use: the provider's entry point is read by every `statebox` command.
if TYPE_CHECKING:
    from statebox.compat.taubench.backend import TauBackend as TauBackend, TauRuntime as TauRuntime
    from statebox.compat.taubench.checkout import TauCheckout as TauCheckout
    from statebox.compat.taubench.errors import TauFormatError as TauFormatError
    from statebox.compat.taubench.provider import TauBench as TauBench
    from statebox.compat.taubench.source import TauSource as TauSource
    from statebox.compat.taubench.suite import TauSuite as TauSuite, load_tau_suite as load_tau_suite
    from statebox.compat.taubench.task import TauBenchTask as TauBenchTask

__getattr__, __dir__, __all__ = lazy_facade(__name__, __file__)
