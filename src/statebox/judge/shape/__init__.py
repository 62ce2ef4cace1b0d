"""The suite's shape: how varied its tasks are and where they can be passed without doing the job (issue 28).

Measured from each task's reference trace by `statebox validate` (and `measure_suite` for tests): distinct
write sequences, the share of tasks that only keep helpdesk records, tasks whose writes no verification
check guards, private facts a tool gives away, writes the customer's confirmations do not name,
near-duplicates, and which tasks lack a current blind review.
"""

from statebox.judge.shape.aggregate import below_minimum, domain_shape, measure_suite, near_duplicates, suite_shape
from statebox.judge.shape.measure import task_shape
from statebox.judge.shape.model import MINIMUMS, DomainShape, Minimums, SuiteShape, TaskShape

__all__ = [
    "MINIMUMS",
    "DomainShape",
    "Minimums",
    "SuiteShape",
    "TaskShape",
    "below_minimum",
    "domain_shape",
    "measure_suite",
    "near_duplicates",
    "suite_shape",
    "task_shape",
]
