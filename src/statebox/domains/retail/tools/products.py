"""The catalog: products and stock."""

from __future__ import annotations

from statebox.domains.retail.tools.common import ProductIdWithExample, found
from statebox.kit import lookup
from statebox.tools import NotFound, tool
from statebox.world import Row, Session

_product_row = lookup("products", None, "search_products finds products by name.")


@tool(writes=False)
def get_product(db: Session, product_id: ProductIdWithExample) -> Row:
    """A product: name, category, price, manufacturer warranty months and whether it is installed."""
    p = _product_row(db, product_id)
    return {**p, "installable": bool(p["installable"])}


@tool(writes=False)
def search_products(db: Session, query: str, category: str | None = None) -> list[Row]:
    """Products whose name or brand contains every word of the query (at most 10).

    Args:
        query: words from the product name, e.g. "espresso machine"
        category: electronics, appliances, kitchen, home, furniture, apparel or outdoor
    """
    sql = "SELECT id AS product_id, name, category, price FROM products WHERE 1 = 1"
    params: list[str] = []
    for word in query.split():
        sql += " AND (name LIKE ? OR brand LIKE ?)"
        params += [f"%{word}%", f"%{word}%"]
    if category:
        sql += " AND category = ?"
        params.append(category.strip().lower())
    rows = db.all(sql + " ORDER BY name LIMIT 10", *params)
    if not rows:
        raise NotFound(f"no product matches {query!r}.", hint="try fewer or different words.")
    return rows


@tool(writes=False)
def check_inventory(db: Session, product_id: str) -> Row:
    """Stock of a product: on hand, reserved for open orders, and available (on hand minus reserved).

    Args:
        product_id: the product id
    """
    pid = product_id.strip().upper()
    s = found(db.one("SELECT product_id, warehouse, on_hand, reserved FROM inventory WHERE product_id = ?", pid),
              f"no stock record for product {pid!r}.", "check the product id with get_product.")
    return {**s, "available": s["on_hand"] - s["reserved"]}
