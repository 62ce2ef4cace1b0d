"""Tasks: the model, the YAML loader, domains, suites and selection."""

from __future__ import annotations

from typing import TYPE_CHECKING

from statebox.lazy import lazy_facade

# The names below load on first use: `statebox.tasks.provider` (which every command reads) and the task model
# must not bring in the domains' tools and the world.
if TYPE_CHECKING:
    from statebox.tasks.domain import Domain as Domain
    from statebox.tasks.index import domain_names as domain_names
    from statebox.tasks.loader import (
        TaskFileError as TaskFileError,
        load_task_dir as load_task_dir,
        load_task_file as load_task_file,
    )
    from statebox.tasks.model import (
        Customer as Customer,
        Expectation as Expectation,
        Fact as Fact,
        Limits as Limits,
        RefCall as RefCall,
        Task as Task,
    )
    from statebox.tasks.suite import (
        Suite as Suite,
        discover_domains as discover_domains,
        load_suite as load_suite,
    )

__getattr__, __dir__, __all__ = lazy_facade(__name__, __file__)
