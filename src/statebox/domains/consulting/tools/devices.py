"""Devices, the device catalogue, replacement orders and asset returns."""

from __future__ import annotations

from typing import Literal

from statebox.domains.consulting.tools.common import (
    ByEmployee,
    CoveringApproval,
    EmployeeId,
    approval_row,
    employee_row,
)
from statebox.kit import compact, lookup, now_iso
from statebox.tools import InvalidArguments, PreconditionFailed, tool
from statebox.world import Row, Session

Kind = Literal["laptop", "phone", "monitor", "dock", "headset"]


_device = lookup("devices", "AST", "asset tags look like AST-10234; list an employee's devices with list_devices.")
_model = lookup("device_models", "MDL", "model ids look like MDL-101; see list_device_models.")
_assigned = ByEmployee("asset_id", "SELECT d.*, m.name AS model, m.kind FROM devices d JOIN device_models m "
                                   "ON m.id = d.model_id WHERE d.employee_id = ? ORDER BY d.id")


@tool(writes=False)
def list_devices(db: Session, employee_id: EmployeeId) -> list[Row]:
    """The devices assigned to an employee: model, kind, purchase date, condition, battery health, status."""
    return _assigned(db, employee_id)


@tool(writes=False)
def list_device_models(db: Session, kind: Kind | None = None) -> list[Row]:
    """The device catalogue: models with their kind, cost and whether they are the standard model.

    Args:
        kind: only this kind (laptop, phone, monitor, dock, headset); empty for all
    """
    rows = db.all("SELECT * FROM device_models WHERE ? IS NULL OR kind = ? ORDER BY id", kind, kind)
    return [{"model_id": r["id"], "kind": r["kind"], "name": r["name"], "cost": r["cost"],
             "standard": bool(r["standard"])} for r in rows]


@tool(writes=True)
def order_device(
    db: Session,
    employee_id: str,
    model_id: str,
    ship_to: Literal["office", "home"] = "office",
    replaces_asset_id: str | None = None,
    line1: str | None = None,
    city: str | None = None,
    postal_code: str | None = None,
    country: str | None = None,
    approval_id: CoveringApproval = None,
) -> Row:
    """Order a device for an employee, shipped to their office or to a home address.

    Linked to a pending approval, the order waits as awaiting_approval.

    Args:
        employee_id: who the device is for
        model_id: the catalogue model, e.g. MDL-101
        ship_to: office (the employee's own office) or home (give the address)
        replaces_asset_id: the device this one replaces, if any
        line1: home address street line (ship_to home)
        city: home address city (ship_to home)
        postal_code: home address postal code (ship_to home)
        country: home address country code, e.g. US (ship_to home)
    """
    e = employee_row(db, employee_id)
    m = _model(db, model_id)
    old = None
    if replaces_asset_id:
        old = _device(db, replaces_asset_id)
        if old["employee_id"] != e["id"]:
            raise PreconditionFailed(f"device {old['id']} is not assigned to {e['id']}.")
    home = [line1, city, postal_code, country]
    if ship_to == "home" and not all(v and v.strip() for v in home):
        raise InvalidArguments("a home delivery needs line1, city, postal_code and country.")
    if ship_to == "office" and any(home):
        raise InvalidArguments("an office delivery takes no address: it goes to the employee's office.")
    a = approval_row(db, approval_id, e)
    oid = db.next_id("device_orders")
    row = {"id": oid, "employee_id": e["id"], "model_id": m["id"], "replaces_asset_id": old["id"] if old else None,
           "ship_to": ship_to, "office_id": e["office_id"] if ship_to == "office" else None,
           "ship_line1": line1, "ship_city": city, "ship_postal_code": postal_code,
           "ship_country": country.strip().upper() if country else None, "approval_id": a["id"] if a else None,
           "status": "awaiting_approval" if a and a["status"] == "pending" else "ordered", "created_at": now_iso(db)}
    db.insert("device_orders", row)
    return {"order_id": oid, "model": m["name"], **compact(row, "id")}


@tool(writes=True)
def request_asset_return(db: Session, asset_id: str, reason: Literal["replaced", "offboarding"]) -> Row:
    """Ask for a device back (a prepaid return label is created); the device becomes return_requested.

    Args:
        asset_id: the device's asset tag, e.g. AST-10234
        reason: replaced (a new device replaces it) or offboarding (the holder leaves)
    """
    dev = _device(db, asset_id)
    if dev["status"] != "in_use":
        raise PreconditionFailed(f"device {dev['id']} is {dev['status']}; only devices in use can be returned.")
    rid = db.next_id("asset_returns")
    db.insert("asset_returns", {"id": rid, "asset_id": dev["id"], "employee_id": dev["employee_id"],
                                "reason": reason, "created_at": now_iso(db)})
    db.update("devices", dev["id"], status="return_requested")
    return {"return_id": rid, "asset_id": dev["id"], "holder": dev["employee_id"], "device_status": "return_requested"}
