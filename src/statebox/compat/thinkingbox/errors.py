"""Errors of the ThinkingBox-Bench compatibility layer."""

from __future__ import annotations


class TbFormatError(ValueError):
    """A checkout file is malformed; the message names the file, task and field."""
