"""The retail domain's tools, grouped by area."""

from statebox.domains.retail.tools.customers import (
    add_address,
    add_loyalty_points,
    find_customer,
    get_customer,
    get_loyalty_history,
    update_customer_contact,
)
from statebox.domains.retail.tools.installation import (
    get_installation,
    list_installation_slots,
    reschedule_installation,
)
from statebox.domains.retail.tools.orders import (
    cancel_order,
    create_replacement_order,
    get_order,
    list_customer_orders,
    update_shipping_address,
)
from statebox.domains.retail.tools.products import check_inventory, get_product, search_products
from statebox.domains.retail.tools.promotions import apply_promotion, get_promotion
from statebox.domains.retail.tools.returns import create_return, get_return, issue_refund, update_return_status
from statebox.domains.retail.tools.shipping import get_shipment_tracking, open_carrier_investigation
from statebox.domains.retail.tools.warranty import file_warranty_claim, get_warranty
from statebox.tools import Tool

ALL_TOOLS: list[Tool] = [
    # customers and loyalty
    find_customer, get_customer, update_customer_contact, add_address, get_loyalty_history, add_loyalty_points,
    # orders, shipping, promotions
    list_customer_orders, get_order, cancel_order, update_shipping_address, create_replacement_order,
    get_shipment_tracking, open_carrier_investigation, get_promotion, apply_promotion,
    # returns and refunds
    get_return, create_return, update_return_status, issue_refund,
    # catalog
    get_product, search_products, check_inventory,
    # warranty and installation
    get_warranty, file_warranty_claim, get_installation, list_installation_slots, reschedule_installation,
    # the helpdesk, emails, hand-offs and search_policy come from the kit (see world.COMPONENTS)
]

__all__ = ["ALL_TOOLS"]
