"""The handbook's tables as code, so seed rows agree with the policy (tools never judge eligibility)."""

from __future__ import annotations

import math
from typing import Literal

Band = Literal["short", "medium", "long"]
EARN_RATE = {"light": 0.25, "classic": 0.5, "flex": 1.0, "business": 1.5}
TIER_BONUS = {"blue": 1.0, "silver": 1.25, "gold": 1.5, "platinum": 2.0}
BAG_PRICE: dict[Band, float] = {"short": 35.0, "medium": 50.0, "long": 70.0}


def band_of(distance_km: int) -> Band:
    """Section 8's distance bands."""
    if distance_km < 1500:
        return "short"
    return "medium" if distance_km < 4000 else "long"


def points_for(distance_km: int, fare_family: str, tier: str) -> int:
    """Section 18: distance x fare rate x tier bonus, rounded down."""
    return math.floor(distance_km * EARN_RATE[fare_family] * TIER_BONUS[tier] + 1e-9)


def bag_price(bands: list[Band], bags: int, tier: str) -> float:
    """Section 12: extra bags for one passenger over all segments; gold+ get the first one free."""
    paid = bags - 1 if tier in ("gold", "platinum") else bags
    return round(max(paid, 0) * sum(BAG_PRICE[b] for b in bands), 2)


LEGROOM_PRICE: dict[Band, float] = {"short": 25.0, "medium": 40.0, "long": 60.0}


def seat_fee(kind: str, fare_family: str, tier: str, band: Band) -> float:
    """Section 19: the fee for one seat on one segment."""
    if kind == "business":
        return 0.0
    if kind == "standard":
        return 12.0 if fare_family == "light" else 0.0
    if fare_family != "light" and tier in ("gold", "platinum"):
        return 0.0
    return LEGROOM_PRICE[band]
