"""Offline tools over run directories and tasks: regrade, verify, show, play (no model or tool server needed,
except the model a person plays against)."""

from typing import Literal

Side = Literal["agent", "customer"]
"""The side a person plays in `statebox play`."""
