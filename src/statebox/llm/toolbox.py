"""Tools offered to a model, encoded for the wire once and reused on every call."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from .types import ToolDef


class PreparedTools:
    """A fixed list of ToolDefs with their JSON encodings, one per request dialect.

    Build one per attempt (the tools do not change within it) and pass it to every
    `complete` call: the schemas are then serialised once, not once per model call.
    """

    __slots__ = ("_defs", "_encoded")

    def __init__(self, defs: Iterable[ToolDef]) -> None:
        self._defs = tuple(defs)
        self._encoded: dict[str, bytes] = {}

    @property
    def defs(self) -> tuple[ToolDef, ...]:
        return self._defs

    def encoded(self, dialect: str, encode: Callable[[tuple[ToolDef, ...]], bytes]) -> bytes:
        """The tools as `encode` writes them for `dialect`, computed on first use."""
        cached = self._encoded.get(dialect)
        if cached is None:
            cached = self._encoded[dialect] = encode(self._defs)
        return cached

    def __len__(self) -> int:
        return len(self._defs)

    def __iter__(self) -> Iterator[ToolDef]:
        return iter(self._defs)


def prepared(tools: Iterable[ToolDef] | PreparedTools | None) -> PreparedTools:
    """`tools` as PreparedTools (a plain list is encoded for this call only)."""
    if isinstance(tools, PreparedTools):
        return tools
    return PreparedTools(tools or ())
