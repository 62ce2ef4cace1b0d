"""Cards: reading one, freezing, blocking, replacing, PIN resets and card settings."""

from __future__ import annotations

import hashlib
from typing import Literal

from statebox.domains.neobank.tools.common import CardId, CardIdWithExample, account_row, card_row, post
from statebox.kit import compact, money, now_iso
from statebox.tools import InvalidArguments, PreconditionFailed, tool
from statebox.world import Row, Session

BlockReason = Literal["lost", "stolen", "damaged", "compromised"]
DEAD = ("blocked", "replaced", "closed")


def _usable(card: Row) -> None:
    if card["status"] in DEAD:
        raise PreconditionFailed(f"card {card['id']} is {card['status']} and can never be used again.",
                                 hint="a blocked card can only be replaced (replace_card).")


def _move(db: Session, card_id: str, was: str, becomes: str) -> Row:
    """A usable card from one status to the other (freeze: active -> frozen, unfreeze: frozen -> active)."""
    c = card_row(db, card_id)
    _usable(c)
    if c["status"] != was:
        raise PreconditionFailed(f"card {c['id']} is {c['status']}, not {was}.")
    db.update("cards", c["id"], status=becomes, updated_at=now_iso(db))
    return {"card_id": c["id"], "status": becomes}


@tool(writes=False)
def get_card(db: Session, card_id: CardIdWithExample) -> Row:
    """A card: kind, status, last 4 digits, expiry, settings (online, abroad), daily limits and PIN state."""
    c = card_row(db, card_id)
    out = compact(c, "updated_at")
    for flag in ("online_payments", "payments_abroad", "pin_locked"):
        out[flag] = bool(c[flag])
    return out


@tool(writes=True)
def freeze_card(db: Session, card_id: CardId) -> Row:
    """Freeze an active card: every payment is declined until it is unfrozen."""
    return _move(db, card_id, "active", "frozen")


@tool(writes=True)
def unfreeze_card(db: Session, card_id: CardId) -> Row:
    """Unfreeze a frozen card so it works again."""
    return _move(db, card_id, "frozen", "active")


@tool(writes=True)
def block_card(db: Session, card_id: CardId, reason: BlockReason) -> Row:
    """Block a card for good (lost, stolen, damaged or compromised); it can then only be replaced.

    Args:
        reason: lost, stolen, damaged or compromised
    """
    c = card_row(db, card_id)
    _usable(c)
    db.update("cards", c["id"], status="blocked", block_reason=reason, updated_at=now_iso(db))
    return {"card_id": c["id"], "status": "blocked", "reason": reason}


@tool(writes=True)
def replace_card(db: Session, card_id: str, fee: float) -> Row:
    """Order a replacement for a blocked card, with the same settings and limits; charges the fee to its account.

    A physical replacement arrives in 3-5 business days and is inactive until activated in the app; a virtual one
    is active at once.

    Args:
        card_id: the blocked card to replace
        fee: the replacement fee in euros (rulebook section 8), 0 when free
    """
    c = card_row(db, card_id)
    if c["status"] != "blocked":
        raise PreconditionFailed(f"card {c['id']} is {c['status']}; only a blocked card is replaced.",
                                 hint="block it first (block_card) with the reason the customer gives.")
    if fee < 0:
        raise InvalidArguments("the fee cannot be negative.")
    charge = money(fee)
    new_id = db.next_id("cards")
    digest = hashlib.sha256(new_id.encode()).digest()
    last4 = f"{int.from_bytes(digest[:2], 'big') % 10000:04d}"
    year, month = db.now.year + 4, db.now.month
    now = now_iso(db)
    db.insert("cards", {
        "id": new_id, "account_id": c["account_id"], "holder_id": c["holder_id"], "kind": c["kind"],
        "last4": last4, "status": "inactive" if c["kind"] == "physical" else "active",
        "expires": f"{year}-{month:02d}", "online_payments": c["online_payments"],
        "payments_abroad": c["payments_abroad"], "daily_spend_limit": c["daily_spend_limit"],
        "daily_atm_limit": c["daily_atm_limit"], "pin_locked": 0, "replacement_of": c["id"],
        "replacement_fee": charge, "issued_at": now, "updated_at": now})
    db.update("cards", c["id"], status="replaced", replaced_by=new_id, updated_at=now)
    if charge:
        post(db, account_row(db, c["account_id"]), "fee", -charge, "Card replacement fee",
             fee_type="card_replacement")
    return {"new_card_id": new_id, "last4": last4, "kind": c["kind"], "fee_charged": charge,
            "status": "inactive until activated in the app" if c["kind"] == "physical" else "active"}


@tool(writes=True)
def reset_card_pin(db: Session, card_id: CardId) -> Row:
    """Unlock a physical card's PIN so the customer can choose a new one in the app."""
    c = card_row(db, card_id)
    _usable(c)
    if c["kind"] != "physical":
        raise PreconditionFailed(f"card {c['id']} is virtual and has no PIN.")
    db.update("cards", c["id"], pin_locked=0, pin_reset_at=now_iso(db), updated_at=now_iso(db))
    return {"card_id": c["id"], "pin_locked": False, "next": "the customer sets a new PIN in the app"}


@tool(writes=True)
def update_card_settings(
    db: Session, card_id: CardId, online_payments: bool | None = None, payments_abroad: bool | None = None,
    daily_spend_limit: float | None = None, daily_atm_limit: float | None = None,
) -> Row:
    """Change a card's settings: online payments and payments abroad on or off, daily spending and cash limits.

    Args:
        online_payments: true to allow online payments, false to block them
        payments_abroad: true to allow payments outside the euro area, false to block them
        daily_spend_limit: the new daily spending limit in euros
        daily_atm_limit: the new daily cash withdrawal limit in euros
    """
    c = card_row(db, card_id)
    _usable(c)
    changes: dict[str, object] = {}
    if online_payments is not None:
        changes["online_payments"] = int(online_payments)
    if payments_abroad is not None:
        changes["payments_abroad"] = int(payments_abroad)
    for name, value in (("daily_spend_limit", daily_spend_limit), ("daily_atm_limit", daily_atm_limit)):
        if value is not None:
            if value <= 0:
                raise InvalidArguments(f"{name} must be more than 0.")
            changes[name] = money(value)
    if not changes:
        raise InvalidArguments("name at least one setting to change.")
    db.update("cards", c["id"], **changes, updated_at=now_iso(db))
    fresh = card_row(db, c["id"])
    return {"card_id": c["id"], **{k: fresh[k] for k in changes}}
