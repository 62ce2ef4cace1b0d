"""The consulting desk's own tools, grouped by area (the kit adds helpdesk, email, hand-off and code tools)."""

from statebox.domains.consulting.tools.accounts import reset_mfa, schedule_account_change
from statebox.domains.consulting.tools.approvals import create_approval_request, list_approval_requests
from statebox.domains.consulting.tools.devices import (
    list_device_models,
    list_devices,
    order_device,
    request_asset_return,
)
from statebox.domains.consulting.tools.expenses import (
    file_expense_claim,
    get_city_band,
    list_expense_claims,
    reimburse_expense,
)
from statebox.domains.consulting.tools.leave import book_leave, cancel_leave, get_leave_summary
from statebox.domains.consulting.tools.people import find_employee, get_employee, get_engagement
from statebox.domains.consulting.tools.software import (
    grant_software_access,
    list_access_grants,
    revoke_software_access,
    search_software,
)
from statebox.domains.consulting.tools.training import (
    cancel_enrolment,
    enrol_in_course,
    get_training_summary,
    search_courses,
)
from statebox.tools import Tool

ALL_TOOLS: list[Tool] = [
    # people and engagements
    find_employee, get_employee, get_engagement,
    # approvals
    create_approval_request, list_approval_requests,
    # software
    search_software, list_access_grants, grant_software_access, revoke_software_access,
    # devices
    list_devices, list_device_models, order_device, request_asset_return,
    # training
    search_courses, get_training_summary, enrol_in_course, cancel_enrolment,
    # leave
    get_leave_summary, book_leave, cancel_leave,
    # expenses
    get_city_band, list_expense_claims, file_expense_claim, reimburse_expense,
    # accounts
    schedule_account_change, reset_mfa,
]

__all__ = ["ALL_TOOLS"]
