"""statebox: evaluate tool-using agents by the backend state they leave behind."""

__version__ = "0.1.0"
