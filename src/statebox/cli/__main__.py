"""`python -m statebox.cli`: the same as the `statebox` command."""

from statebox.cli import main

main()
