"""The rating table of policy section 12: annual premiums per coverage option and driver surcharges."""

from __future__ import annotations

from datetime import date

# coverage -> option -> (annual premium, deductible, rental daily cap, rental max days)
RATES: dict[str, dict[str, tuple[float, float | None, float | None, int | None]]] = {
    "liability": {"25/50/25": (540, None, None, None), "50/100/50": (660, None, None, None),
                  "100/300/100": (780, None, None, None), "250/500/250": (940, None, None, None)},
    "collision": {"250": (620, 250, None, None), "500": (520, 500, None, None), "1000": (410, 1000, None, None)},
    "comprehensive": {"100": (260, 100, None, None), "250": (210, 250, None, None),
                      "500": (170, 500, None, None), "1000": (130, 1000, None, None)},
    "uninsured_motorist": {"25/50": (60, None, None, None), "50/100": (84, None, None, None),
                           "100/300": (112, None, None, None)},
    "rental": {"30x21": (42, None, 30, 21), "50x30": (66, None, 50, 30)},
    "roadside": {"standard": (28, None, None, None)},
}
COVERAGES: tuple[str, ...] = tuple(RATES)


def age_on(born: str, on: str) -> int:
    b, d = date.fromisoformat(born), date.fromisoformat(on)
    return d.year - b.year - ((d.month, d.day) < (b.month, b.day))


def driver_surcharge(born: str, on: str) -> float:
    """The yearly surcharge of a listed driver of this age on the given date."""
    age = age_on(born, on)
    return 1100.0 if age < 21 else 520.0 if age < 25 else 0.0
