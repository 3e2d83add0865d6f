"""What each operators' role may do, in one line: shown where an administrator chooses an operator's groups (the
user's page) and on the groups' own pages in the back office (QA walk of the back office, defect 10).

The roles are groups made by migrations (`backoffice.0002_staff_roles` and later, decision 0025); a test checks that
every group they make has its line here. Back-office text, English (decision 0418).
"""

from __future__ import annotations

__all__ = ["ROLE_DESCRIPTIONS", "role_description"]

ROLE_DESCRIPTIONS = {
    "payments": (
        "Payments desk: verifies the payments customers report and credits or rejects them; reads payment "
        "instructions, deposits, the ledger and orders; adds exchange rates; reads operator notices."
    ),
    "payouts": "Payouts desk: sends or rejects the withdrawals customers ask for, and nothing else.",
    "provisioning": (
        "Provisioning desk: prepares paid rentals' machines and gives access, handles stop and restart requests, "
        "removes ended rentals' access, registers and checks GPU hosts."
    ),
    "catalog": "Catalog: GPU models, their prices and stock, exchange rates and receiving addresses.",
    "reports": "Business dashboard: revenue, money received, occupancy and the queues; no desk.",
    "support": "Support inbox: reads customers' support requests, replies to and closes them; e-mailed when one waits.",
}


def role_description(name: str) -> str:
    """The role's line, or "" for a group that is not one of the shop's roles (made by hand)."""
    return ROLE_DESCRIPTIONS.get(name, "")
