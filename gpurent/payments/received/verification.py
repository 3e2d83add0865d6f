"""Verifying payments: the `PaymentVerifier` interface, its manual implementation, and the review queue.

A verifier states that a transaction paid an intent (txid, amount received in the pair's quote units), or that
no valid payment exists. Recording and crediting is `receive.payment_receive`: exactly once per (network,
txid, output index), at the intent's locked rate before expiry; after expiry in the review queue, credited only
by an operator's decision.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol
from uuid import UUID

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from gpurent.core.audit import audit_record
from gpurent.orders.enums import Track
from gpurent.orders.history_notes import payment_rejected_note
from gpurent.orders.models import OrderStatusChange

from ..errors import IntentClosed
from ..models import IntentStatus, Payment, PaymentIntent, PaymentSource, PaymentState
from ..notify import customer_intent_rejected_email
from .receive import (
    credited_so_far,
    money_lock_for_intent,
    payment_receive,
    payments_review_reject,
    payments_review_resolve,
)

__all__ = [
    "ManualVerifier",
    "PaymentVerifier",
    "intent_confirm",
    "intent_reject",
    "intents_expire_due",
    "review_resolve",
]


class PaymentVerifier(Protocol):
    """Something that can tell the shop a payment happened, or did not."""

    def confirm(
        self, *, intent_id: UUID, txid: str, received_units: int, actor: AbstractBaseUser | None
    ) -> PaymentIntent: ...

    def reject(self, *, intent_id: UUID, actor: AbstractBaseUser | None, reason: str) -> PaymentIntent: ...


class ManualVerifier:
    """The embedded default: an operator checks the chain and enters what they saw (back office, CLI)."""

    def confirm(
        self, *, intent_id: UUID, txid: str, received_units: int, actor: AbstractBaseUser | None
    ) -> PaymentIntent:
        return intent_confirm(intent_id=intent_id, txid=txid, received_units=received_units, actor=actor)

    def reject(self, *, intent_id: UUID, actor: AbstractBaseUser | None, reason: str) -> PaymentIntent:
        return intent_reject(intent_id=intent_id, actor=actor, reason=reason)


def intent_confirm(
    *,
    intent_id: UUID,
    txid: str,
    received_units: int,
    output_index: int = 0,
    actor: AbstractBaseUser | None = None,
    now: datetime | None = None,
) -> PaymentIntent:
    """An operator saw transaction `txid` (output `output_index`) pay `received_units` to the intent:
    `payment_receive` with source `operator`; returns the intent as it is afterwards.

    Raises:
        As `payment_receive`: InvalidRequest, NotFound, PaymentAlreadyCredited.
    """
    payment_receive(
        intent_id=intent_id,
        txid=txid,
        amount_units=received_units,
        output_index=output_index,
        source=PaymentSource.OPERATOR,
        actor=actor,
        now=now,
    )
    return PaymentIntent.objects.select_related("owner", "deposit", "order").get(pk=intent_id)


def intent_reject(
    *, intent_id: UUID, actor: AbstractBaseUser | None = None, reason: str = "", now: datetime | None = None
) -> PaymentIntent:
    """No valid payment exists for this intent (nothing arrived, wrong network, a reversed transaction).

    Payments of the intent waiting in review are declined with it (nothing is credited). A payment that
    arrives later is still recorded: before expiry it is credited at the locked rate, after it goes to review.

    Raises:
        IntentClosed: a payment of the intent was credited already (a credit is corrected by a reversal).
    """
    with transaction.atomic():
        intent = money_lock_for_intent(intent_id)
        if intent.status == IntentStatus.REJECTED:
            return intent
        if intent.payments.filter(state=PaymentState.CREDITED).exists() or intent.status == IntentStatus.CONFIRMED:
            # For operators (the desk, `confirm_payment --reject`): what was credited, and why it stays.
            so_far = credited_so_far(intent)
            raise IntentClosed(
                f"This payment cannot be rejected ({so_far or 'it is confirmed'}): a credit is corrected by a "
                "reversal, not by a rejection."
            )
        before = {"status": intent.status}
        payments_review_reject(intent_id=intent_id, actor=actor, reason=reason)
        intent.status = IntentStatus.REJECTED
        intent.verified_at = now or timezone.now()
        intent.verified_by_id = actor.pk if actor is not None and actor.is_authenticated else None
        intent.save(update_fields=["status", "verified_at", "verified_by"])
        audit_record(actor=actor, action="payment.rejected", target=intent, before=before, after={"reason": reason})
        if intent.reported_at is not None:
            _reported_payment_rejected(intent, actor=actor, reason=reason)
    return intent


def _reported_payment_rejected(intent: PaymentIntent, *, actor: AbstractBaseUser | None, reason: str) -> None:
    """The customer who reported a payment is answered: the order's history says it was not accepted and why
    (after its "payment reported" line), and an e-mail tells them, in the transaction of the rejection."""
    order = intent.order
    if order is not None:
        OrderStatusChange.objects.create(
            order_id=order.pk,
            track=Track.PAYMENT,
            from_status=order.payment_status,
            to_status=order.payment_status,
            actor_id=actor.pk if actor is not None and actor.is_authenticated else None,
            reason=payment_rejected_note(reason),
        )
    customer_intent_rejected_email(intent, reason)


def review_resolve(
    *, intent_id: UUID, actor: AbstractBaseUser, use_current_rate: bool, now: datetime | None = None
) -> list[Payment]:
    """Credit the late payments of an intent from the review queue (see `payments_review_resolve`)."""
    return payments_review_resolve(intent_id=intent_id, actor=actor, use_current_rate=use_current_rate, now=now)


def intents_expire_due(*, now: datetime | None = None) -> int:
    """Mark open intents past their expiry as expired (idempotent: a conditional UPDATE)."""
    now = now or timezone.now()
    return PaymentIntent.objects.filter(status=IntentStatus.AWAITING_PAYMENT, expires_at__lte=now).update(
        status=IntentStatus.EXPIRED
    )
