"""The transition table of both status tracks: what may follow what, and on which condition.

Every change goes through `services.order_transition`, which checks this table and writes an
`OrderStatusChange` row in the same transaction.
"""

from __future__ import annotations

from .enums import PaymentStatus, ProvisioningStatus, Track

PAYMENT_TRANSITIONS: dict[str, frozenset[str]] = {
    PaymentStatus.AWAITING_PAYMENT: frozenset({PaymentStatus.PAID, PaymentStatus.EXPIRED, PaymentStatus.CANCELLED}),
    PaymentStatus.PAID: frozenset(),
    PaymentStatus.EXPIRED: frozenset(),
    PaymentStatus.CANCELLED: frozenset(),
}

PROVISIONING_TRANSITIONS: dict[str, frozenset[str]] = {
    # Failed from "not started" too: a paid order that cannot be provided is refunded without first telling the
    # customer that their machine is being prepared (QA walk 3, defect 11). Unpaid, it never leaves "not started".
    ProvisioningStatus.NOT_STARTED: frozenset({ProvisioningStatus.PREPARING, ProvisioningStatus.FAILED}),
    ProvisioningStatus.PREPARING: frozenset({ProvisioningStatus.READY, ProvisioningStatus.FAILED}),
    ProvisioningStatus.READY: frozenset({ProvisioningStatus.ENDED}),
    ProvisioningStatus.ENDED: frozenset(),
    ProvisioningStatus.FAILED: frozenset(),
}

TRANSITIONS: dict[str, dict[str, frozenset[str]]] = {
    Track.PAYMENT: PAYMENT_TRANSITIONS,
    Track.PROVISIONING: PROVISIONING_TRANSITIONS,
}


def is_allowed(track: str, current: str, target: str) -> bool:
    """Whether `target` may follow `current` on `track` (the cross-track rule is checked by the service)."""
    return target in TRANSITIONS[track].get(current, frozenset())
