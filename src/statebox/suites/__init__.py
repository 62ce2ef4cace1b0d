"""Suites: the providers the `statebox` command asks for suites, and the built-in suites (one per domain).

The one interface every suite implements, `TaskSet`, is in `statebox.runner.taskset`, beside the attempt
sources it returns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from statebox.lazy import lazy_facade

# The names below load on first use: `statebox.suites.provider` (which every command reads) must not bring in
# the domains' tools and the world.
if TYPE_CHECKING:
    from statebox.suites.builtin import BuiltinSuites as BuiltinSuites
    from statebox.suites.builtin_suite import Suite as Suite, load_suite as load_suite

__getattr__, __dir__, __all__ = lazy_facade(__name__, __file__)
