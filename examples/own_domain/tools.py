"""The agent's tools: typed functions; the docstring and the hints are the schema the agent sees."""

from datetime import date, datetime, timedelta
from typing import Literal

from statebox.kit import fetch, money, normalize_id, now_iso
from statebox.tools import InvalidArguments, NotFound, PreconditionFailed, tool
from statebox.world import Row, Session

PRICES = {"basic": 20.0, "plus": 35.0, "family": 50.0}  # monthly, as policy section 2 states them
CLASS_PLANS = ("plus", "family")  # policy 6
LATE_FEE = 5.0  # policy 6
FREE_CANCEL = timedelta(hours=12)  # policy 6
Plan = Literal["basic", "plus", "family"]


def _member(db: Session, member_id: str) -> Row:
    return fetch(db, "members", normalize_id(member_id, "MEM"), "member",
                 "ask for the member number, or find_member with the email on file.")


@tool(writes=False)
def get_member(db: Session, member_id: str) -> Row:
    """A member: name, plan and its monthly price, status (active or frozen), unpaid balance, upcoming bookings.

    Args:
        member_id: the member number, e.g. MEM-1001
    """
    m = _member(db, member_id)
    bookings = db.all("SELECT b.id AS booking_id, c.name, c.starts_at FROM bookings b JOIN classes c "
                      "ON c.id = b.class_id WHERE b.member_id = ? AND b.status = 'booked' ORDER BY c.starts_at",
                      m["id"])
    return {"member_id": m["id"], "name": m["name"], "plan": m["plan"], "monthly_price": PRICES[m["plan"]],
            "status": m["status"], "frozen_until": m["frozen_until"], "balance": m["balance"],
            "bookings": bookings}


@tool(writes=False)
def find_member(db: Session, email: str) -> Row:
    """The member whose email on file is this one (for a member who does not know their number).

    Args:
        email: the email address the member gives
    """
    m = db.one("SELECT id, name FROM members WHERE lower(email) = lower(?)", email.strip())
    if m is None:
        raise NotFound("no member has this email on file.", hint="ask the member to check the address.")
    return {"member_id": m["id"], "name": m["name"]}


@tool(writes=True)
def change_plan(db: Session, member_id: str, plan: Plan) -> Row:
    """Move a member to another plan (policy section 3 says when).

    Args:
        member_id: the member number, e.g. MEM-1001
        plan: the new plan
    """
    m = _member(db, member_id)
    if m["status"] == "frozen":
        raise PreconditionFailed(f"member {m['id']} is frozen; a plan changes only on an active membership.")
    if m["plan"] == plan:
        raise PreconditionFailed(f"member {m['id']} is already on the {plan} plan.")
    if PRICES[plan] > PRICES[m["plan"]] and m["balance"] > 0:
        raise PreconditionFailed(f"member {m['id']} has an unpaid balance of {m['balance']:.2f}; "
                                 "a move to a dearer plan waits until it is paid.")
    db.update("members", m["id"], plan=plan, updated_at=now_iso(db))
    return {"member_id": m["id"], "plan": plan, "monthly_price": PRICES[plan]}


@tool(writes=True)
def record_payment(db: Session, member_id: str, amount: float) -> Row:
    """Take a payment towards the unpaid balance with the card on file (policy section 4).

    Args:
        member_id: the member number, e.g. MEM-1001
        amount: how much to pay, at most the balance
    """
    m = _member(db, member_id)
    amount = money(amount)
    if amount <= 0 or amount > m["balance"] + 0.001:
        raise InvalidArguments(f"the amount must be more than 0 and at most the balance, {m['balance']:.2f}.")
    row = db.insert("payments", {"id": db.next_id("payments"), "member_id": m["id"], "amount": amount,
                                 "paid_at": now_iso(db)})
    db.update("members", m["id"], balance=money(m["balance"] - amount), updated_at=now_iso(db))
    return {"payment_id": row["id"], "amount": amount, "balance": money(m["balance"] - amount)}


def _months_later(day: date, months: int) -> date:
    month = day.month - 1 + months
    return day.replace(year=day.year + month // 12, month=month % 12 + 1)


@tool(writes=True)
def freeze_membership(db: Session, member_id: str, months: int) -> Row:
    """Freeze an active membership for 1 to 3 whole months from today (policy section 5).

    Args:
        member_id: the member number, e.g. MEM-1001
        months: how many months, 1 to 3
    """
    m = _member(db, member_id)
    if months not in (1, 2, 3):
        raise InvalidArguments("a freeze is 1, 2 or 3 months.")
    if m["status"] == "frozen":
        raise PreconditionFailed(f"member {m['id']} is already frozen until {m['frozen_until']}.")
    if m["balance"] > 0:
        raise PreconditionFailed(f"member {m['id']} has an unpaid balance of {m['balance']:.2f}; pay it first.")
    until = _months_later(db.now.date(), months).isoformat()
    db.update("members", m["id"], status="frozen", frozen_until=until, updated_at=now_iso(db))
    return {"member_id": m["id"], "status": "frozen", "frozen_until": until}


@tool(writes=True)
def unfreeze_membership(db: Session, member_id: str) -> Row:
    """End a freeze today: the membership is active again (policy section 5).

    Args:
        member_id: the member number, e.g. MEM-1001
    """
    m = _member(db, member_id)
    if m["status"] != "frozen":
        raise PreconditionFailed(f"member {m['id']} is not frozen.")
    db.update("members", m["id"], status="active", frozen_until=None, updated_at=now_iso(db))
    return {"member_id": m["id"], "status": "active"}


@tool(writes=False)
def list_classes(db: Session, day: str) -> list[Row]:
    """The classes on one day, with their free places.

    Args:
        day: the date, YYYY-MM-DD
    """
    try:
        date.fromisoformat(day.strip())
    except ValueError:
        raise InvalidArguments("a day looks like 2026-03-03.") from None
    return db.all("SELECT id AS class_id, name, starts_at, capacity - booked AS free FROM classes "
                  "WHERE substr(starts_at, 1, 10) = ? ORDER BY starts_at", day.strip())


@tool(writes=True)
def book_class(db: Session, member_id: str, class_id: str) -> Row:
    """Book a place in a class for a member (policy section 6 says who may).

    Args:
        member_id: the member number, e.g. MEM-1001
        class_id: the class, e.g. CLS-1001 (list_classes shows them)
    """
    m = _member(db, member_id)
    c = fetch(db, "classes", normalize_id(class_id, "CLS"), "class", "list_classes shows the classes of a day.")
    if m["status"] != "active" or m["plan"] not in CLASS_PLANS:
        raise PreconditionFailed(f"member {m['id']} cannot book classes: an active plus or family plan is needed.")
    if c["booked"] >= c["capacity"]:
        raise PreconditionFailed(f"class {c['id']} is full.")
    row = db.insert("bookings", {"id": db.next_id("bookings"), "member_id": m["id"], "class_id": c["id"],
                                 "status": "booked", "late_fee": 0.0, "created_at": now_iso(db),
                                 "updated_at": now_iso(db)})
    db.update("classes", c["id"], booked=c["booked"] + 1)
    return {"booking_id": row["id"], "class": c["name"], "starts_at": c["starts_at"]}


@tool(writes=True)
def cancel_booking(db: Session, booking_id: str) -> Row:
    """Cancel a booking; less than 12 hours before the class, the late fee is added to the balance (policy 6).

    Args:
        booking_id: the booking, e.g. BKG-1001 (get_member lists a member's bookings)
    """
    b = fetch(db, "bookings", normalize_id(booking_id, "BKG"), "booking", "get_member lists a member's bookings.")
    if b["status"] != "booked":
        raise PreconditionFailed(f"booking {b['id']} is already cancelled.")
    c = fetch(db, "classes", b["class_id"], "class", "")
    late = datetime.fromisoformat(c["starts_at"]) - db.now < FREE_CANCEL
    fee = LATE_FEE if late else 0.0
    db.update("bookings", b["id"], status="cancelled", late_fee=fee, updated_at=now_iso(db))
    db.update("classes", c["id"], booked=c["booked"] - 1)
    if fee:
        m = _member(db, b["member_id"])
        db.update("members", m["id"], balance=money(m["balance"] + fee), updated_at=now_iso(db))
    return {"booking_id": b["id"], "status": "cancelled", "late_fee": fee}


TOOLS = [get_member, find_member, change_plan, record_payment, freeze_membership, unfreeze_membership,
         list_classes, book_class, cancel_booking]
