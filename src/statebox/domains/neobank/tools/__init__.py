"""The neobank domain's own tools, grouped by area (the kit adds the helpdesk, email, hand-offs and codes)."""

from statebox.domains.neobank.tools.accounts import close_account, get_account, get_transaction, list_transactions
from statebox.domains.neobank.tools.cards import (
    block_card,
    freeze_card,
    get_card,
    replace_card,
    reset_card_pin,
    unfreeze_card,
    update_card_settings,
)
from statebox.domains.neobank.tools.customers import (
    change_plan,
    find_customer,
    get_customer,
    list_fee_refunds,
    upgrade_kyc_level,
    verify_identity,
)
from statebox.domains.neobank.tools.disputes import file_chargeback, open_dispute
from statebox.domains.neobank.tools.payments import (
    cancel_recurring_payment,
    list_payees,
    quote_transfer,
    refund_direct_debit,
    refund_fee,
    request_recall,
    resolve_held_payment,
    send_transfer,
)
from statebox.tools import Tool

ALL_TOOLS: list[Tool] = [
    # customers, identity, plans and verification levels
    find_customer, get_customer, verify_identity, list_fee_refunds, change_plan, upgrade_kyc_level,
    # accounts and transactions
    get_account, list_transactions, get_transaction, close_account,
    # cards
    get_card, freeze_card, unfreeze_card, block_card, replace_card, reset_card_pin, update_card_settings,
    # disputes
    open_dispute, file_chargeback,
    # payments, recurring payments and refunds
    list_payees, quote_transfer, send_transfer, resolve_held_payment, request_recall, cancel_recurring_payment,
    refund_direct_debit, refund_fee,
]

__all__ = ["ALL_TOOLS"]
