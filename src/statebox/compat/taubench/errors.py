"""The one error of τ-bench input: a checkout, a task file or a trajectory statebox cannot read."""


class TauFormatError(ValueError):
    """Bad τ-bench input; the message is one line naming the file and the record or field."""
