"""Holds `sitecustomize.py`, the clock pin put on tool servers' PYTHONPATH (see `clockpin`)."""
