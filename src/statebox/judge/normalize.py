"""Dictated text compared as people mean it: case, accents, punctuation and common abbreviations aside."""

from __future__ import annotations

import re
import unicodedata

# Long forms people type and the short form they mean the same thing as (postal usage).
_SAME_WORD = {
    "street": "st", "road": "rd", "avenue": "ave", "av": "ave", "lane": "ln", "drive": "dr",
    "boulevard": "blvd", "court": "ct", "place": "pl", "terrace": "ter", "highway": "hwy",
    "parkway": "pkwy", "circle": "cir", "square": "sq", "mount": "mt", "saint": "st",
    "apartment": "apt", "suite": "ste", "unit": "apt", "floor": "fl", "building": "bldg",
    "north": "n", "south": "s", "east": "e", "west": "w",
    "northeast": "ne", "northwest": "nw", "southeast": "se", "southwest": "sw",
}
_WORD = re.compile(r"[a-z0-9]+")


def normalize_text(value: str) -> str:
    """Lower case, accents folded, punctuation dropped, abbreviations unified, one space between words."""
    folded = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode().lower()
    return " ".join(_SAME_WORD.get(w, w) for w in _WORD.findall(folded))


def same_dictated(a: object, b: object) -> bool:
    """Equal once normalised (both strings), or plainly equal otherwise."""
    if isinstance(a, str) and isinstance(b, str):
        return normalize_text(a) == normalize_text(b)
    return a == b


def within_tolerance(a: object, b: object, tolerance: float) -> bool:
    """Two numbers no further apart than the tolerance (booleans are not numbers here)."""
    numbers = (int, float)
    if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, numbers) or not isinstance(b, numbers):
        return False
    return abs(float(a) - float(b)) <= tolerance + 1e-12
