"""Domains kept in the user's own folders: opened by path, published by a package, scaffolded by `new-domain`.

`statebox run ./my_domain` (and every command that takes a suite) opens a folder through `FolderPaths`,
registered as a `statebox.suites` provider; a package publishes its folder under a name of its own
with `folder_suite` (docs/your-own-domain.md).
"""

from statebox.folders.provider import FolderPaths, FolderSuite, folder_suite

__all__ = ["FolderPaths", "FolderSuite", "folder_suite"]
