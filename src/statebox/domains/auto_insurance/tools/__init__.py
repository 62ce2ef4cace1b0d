"""The auto-insurance domain's own tools, grouped by area (the kit adds helpdesk, email, hand-off, codes)."""

from statebox.domains.auto_insurance.tools.billing import (
    cancel_policy,
    pay_installments,
    reinstate_policy,
    waive_late_fee,
)
from statebox.domains.auto_insurance.tools.claims import (
    add_claim_line,
    attach_claim_document,
    file_claim,
    get_claim,
    mark_total_loss,
    update_claim_status,
)
from statebox.domains.auto_insurance.tools.endorsements import (
    add_driver,
    add_vehicle,
    change_coverage,
    remove_vehicle,
    update_driver_status,
)
from statebox.domains.auto_insurance.tools.policies import get_policy
from statebox.domains.auto_insurance.tools.policyholders import find_policyholder, get_policyholder, update_address
from statebox.domains.auto_insurance.tools.settlement import (
    assign_adjuster,
    assign_repair_shop,
    authorize_rental,
    decide_claim_line,
    find_repair_shops,
    issue_claim_payment,
    list_adjusters,
    open_subrogation,
)
from statebox.tools import Tool

ALL_TOOLS: list[Tool] = [
    # policyholders and policies
    find_policyholder, get_policyholder, update_address, get_policy,
    # endorsements
    add_driver, update_driver_status, add_vehicle, remove_vehicle, change_coverage,
    # billing and cancellation
    pay_installments, waive_late_fee, reinstate_policy, cancel_policy,
    # claims
    get_claim, file_claim, add_claim_line, attach_claim_document, update_claim_status, mark_total_loss,
    # settlement
    find_repair_shops, list_adjusters, assign_adjuster, assign_repair_shop, decide_claim_line, issue_claim_payment,
    authorize_rental, open_subrogation,
]

__all__ = ["ALL_TOOLS"]
