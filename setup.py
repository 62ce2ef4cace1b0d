"""The one compiled part: the copy-on-write SQLite VFS sessions use (optional: without it, or without
a compiler or SQLite's headers, the install succeeds and sessions restore by copying the image).

It links no SQLite: it is a SQLite loadable extension that reaches, at run time, the SQLite the
stdlib's sqlite3 runs on (see the head of _cowvfs.c), so only the headers are needed to build it.
"""

import sys

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "statebox.world._cowvfs",
            sources=["src/statebox/world/_cowvfs.c"],
            libraries=["dl"] if sys.platform.startswith("linux") else [],  # dlopen/dlsym before glibc 2.34
            extra_compile_args=[
                "-O2", "-Wall", "-Wextra", "-Werror=implicit-function-declaration", "-fvisibility=hidden",
            ],
            optional=True,
        )
    ]
)
