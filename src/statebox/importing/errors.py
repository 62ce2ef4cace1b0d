"""Bad input to `statebox import`: one line naming the file and the record."""


class ImportFormatError(ValueError):
    """A file an importer cannot read as its format, or a record that does not fit the suite."""
