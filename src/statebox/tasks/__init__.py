"""Tasks: the model, the YAML loader, domains, and domains' tasks with their snapshots (suites: `statebox.suites`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from statebox.lazy import lazy_facade

# The names below load on first use: the task model (which every command reads) must not bring in the domains'
# tools and the world.
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
    from statebox.tasks.worlds import (
        TaskWorlds as TaskWorlds,
        discover_domains as discover_domains,
        load_worlds as load_worlds,
    )

__getattr__, __dir__, __all__ = lazy_facade(__name__, __file__)
