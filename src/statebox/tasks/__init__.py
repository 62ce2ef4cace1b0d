"""Tasks: the model, the YAML loader, domains, suites and selection."""

from statebox.tasks.domain import Domain
from statebox.tasks.loader import TaskFileError, load_task_dir, load_task_file
from statebox.tasks.model import Customer, Expectation, Fact, Limits, RefCall, Task
from statebox.tasks.suite import Suite, discover_domains, domain_names, load_suite

__all__ = [
    "Customer",
    "Domain",
    "Expectation",
    "Fact",
    "Limits",
    "RefCall",
    "Suite",
    "Task",
    "TaskFileError",
    "discover_domains",
    "domain_names",
    "load_suite",
    "load_task_dir",
    "load_task_file",
]
