"""The one compiled part: the copy-on-write SQLite VFS sessions use (optional: without it, or without
a compiler or SQLite's headers, the install succeeds and sessions restore by copying the image)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "statebox.world._cowvfs",
            sources=["src/statebox/world/_cowvfs.c"],
            libraries=["sqlite3"],  # the shared libsqlite3 the stdlib's _sqlite3 uses: one VFS registry
            extra_compile_args=["-O2", "-Wall", "-Wextra", "-Werror=implicit-function-declaration"],
            optional=True,
        )
    ]
)
