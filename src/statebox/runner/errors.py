"""Errors that stop a campaign before any attempt runs."""

from __future__ import annotations


class CampaignError(RuntimeError):
    """The campaign cannot start (bad run directory, broken task, unstartable tool server); nothing was run."""
