from typing import Final

VFS_NAME: Final[str]

class Image:
    """A database image registered with the statebox-cow VFS while this object lives."""

    def __init__(self, image: bytes) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def size(self) -> int: ...

def stats() -> dict[str, int]: ...
