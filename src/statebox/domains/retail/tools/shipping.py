"""Shipments: carrier tracking and carrier investigations of stalled or missing parcels."""

from __future__ import annotations

from statebox.domains.retail.tools.common import OrderNumber, compact, get_order_row, now_iso
from statebox.kit import lookup
from statebox.tools import NotFound, PreconditionFailed, tool
from statebox.world import Row, Session

_shipment_row = lookup("shipments", None, "get_shipment_tracking lists an order's shipment ids.")


@tool(writes=False)
def get_shipment_tracking(db: Session, order_id: OrderNumber) -> list[Row]:
    """The order's shipments with every carrier tracking event (oldest first) and any investigation."""
    o = get_order_row(db, order_id)
    shipments = db.all("SELECT * FROM shipments WHERE order_id = ? ORDER BY id", o["id"])
    if not shipments:
        raise NotFound(f"order {o['id']} has not shipped yet (status {o['status']}).",
                       hint=f"its promised delivery date is {o['promised_delivery']}.")
    out = []
    for s in shipments:
        events = db.all("SELECT occurred_at, location, description FROM tracking_events WHERE shipment_id = ? "
                        "ORDER BY occurred_at", s["id"])
        probes = db.all("SELECT id AS investigation_id, status, opened_at FROM carrier_investigations "
                        "WHERE shipment_id = ? ORDER BY id", s["id"])
        out.append({**compact(s, "id"), "shipment_id": s["id"], "events": events, "investigations": probes})
    return out


@tool(writes=True)
def open_carrier_investigation(db: Session, shipment_id: str) -> Row:
    """Ask the carrier to trace a stalled parcel, or one marked delivered that never arrived.

    Args:
        shipment_id: the shipment id, e.g. SHP-100234 (see get_shipment_tracking)
    """
    s = _shipment_row(db, shipment_id)
    if db.one("SELECT id FROM carrier_investigations WHERE shipment_id = ? AND status = 'open'", s["id"]):
        raise PreconditionFailed(f"an investigation of shipment {s['id']} is already open.")
    inv = db.next_id("carrier_investigations")
    db.insert("carrier_investigations", {"id": inv, "shipment_id": s["id"], "carrier": s["carrier"],
                                         "status": "open", "opened_at": now_iso(db)})
    db.update("shipments", s["id"], status="investigating")
    return {"investigation_id": inv, "shipment_id": s["id"], "carrier": s["carrier"], "status": "open"}
