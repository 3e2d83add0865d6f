"""Verifying payments: the `PaymentVerifier` interface, its manual implementation, and the review queue.

A verifier states that a transaction paid an intent (txid, amount received in the pair's quote units), or that
no valid payment exists. Confirmation credits the balance at the intent's locked rate, rounded down, exactly
once whatever the number of workers or redeliveries; a payment that arrives after the intent expired waits in
the review queue and is credited only by an operator's decision.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol
from uuid import UUID

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gpurent.core.audit import audit_record
from gpurent.core.errors import InvalidRequest
from gpurent.core.money import Usd
from gpurent.orders.models import Order

from .assets import pair_get, usd_value
from .errors import IntentClosed
from .models import Deposit, DepositKind, IntentStatus, PaymentIntent
from .rates import current_rate
from .services import payment_credit

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


def _snapshot(intent: PaymentIntent) -> dict[str, object]:
    return {
        "status": intent.status,
        "txid": intent.txid,
        "received_units": intent.received_units,
        "credited_deposit": intent.credited_deposit.ref if intent.credited_deposit else None,
    }


def _lock_order_first(intent: PaymentIntent) -> None:
    # Lock order: intent, then its order, then the ledger accounts (in transfer_post) — the same order
    # `order_pay_from_balance` takes (order, then accounts), so the two never deadlock.
    if intent.order_id is not None:
        Order.objects.select_for_update().filter(pk=intent.order_id).exists()


def intent_confirm(
    *,
    intent_id: UUID,
    txid: str,
    received_units: int,
    actor: AbstractBaseUser | None = None,
    now: datetime | None = None,
) -> PaymentIntent:
    """Record that transaction `txid` paid `received_units` to the intent, and credit it once.

    The same confirmation again (a second worker, a webhook redelivery) changes nothing and returns the
    intent. Received more or less than asked: the value received is credited all the same (an over-payment
    leaves the excess in the balance; a partial one leaves the order unpaid). After expiry: review queue.

    Raises:
        InvalidRequest: no transaction id, or a non-positive amount.
        IntentClosed: the intent was confirmed with another transaction, or rejected.
    """
    txid = txid.strip()
    if not txid or received_units <= 0:
        raise InvalidRequest(_("A transaction id and a positive received amount are required."))
    now = now or timezone.now()
    with transaction.atomic():
        intent = (
            PaymentIntent.objects.select_for_update(of=("self",)).select_related("owner", "deposit").get(pk=intent_id)
        )
        if intent.status in (IntentStatus.CONFIRMED, IntentStatus.REVIEW) and intent.txid == txid:
            return intent
        if intent.status in (IntentStatus.CONFIRMED, IntentStatus.REJECTED, IntentStatus.REVIEW):
            raise IntentClosed()
        _lock_order_first(intent)
        intent.txid, intent.received_units = txid, received_units
        intent.verified_at = now
        intent.verified_by_id = actor.pk if actor is not None and actor.is_authenticated else None
        if now >= intent.expires_at or intent.status == IntentStatus.EXPIRED:
            # The rate was locked until expiry only: an operator decides how to credit a late payment.
            intent.status = IntentStatus.REVIEW
        else:
            intent.status = IntentStatus.CONFIRMED
            credit = usd_value(received_units, intent.rate_usd, pair_get(intent.asset, intent.network))
            kind = DepositKind.TOP_UP if intent.deposit_id else DepositKind.ORDER_PAYMENT
            intent.credited_deposit = payment_credit(intent=intent, credit=credit, kind=kind, now=now)
        intent.save()
        audit_record(actor=actor, action=f"payment.{intent.status}", target=intent, after=_snapshot(intent))
    return intent


def intent_reject(
    *, intent_id: UUID, actor: AbstractBaseUser | None = None, reason: str = "", now: datetime | None = None
) -> PaymentIntent:
    """No valid payment exists for this intent (nothing arrived, wrong network, a reversed transaction).

    Raises:
        IntentClosed: the intent was already confirmed (a credit is corrected by a reversal, not a rejection).
    """
    with transaction.atomic():
        intent = PaymentIntent.objects.select_for_update().get(pk=intent_id)
        if intent.status == IntentStatus.REJECTED:
            return intent
        if intent.status == IntentStatus.CONFIRMED:
            raise IntentClosed()
        before = _snapshot(intent)
        intent.status = IntentStatus.REJECTED
        intent.verified_at = now or timezone.now()
        intent.verified_by_id = actor.pk if actor is not None and actor.is_authenticated else None
        intent.save(update_fields=["status", "verified_at", "verified_by"])
        audit_record(actor=actor, action="payment.rejected", target=intent, before=before, after={"reason": reason})
    return intent


def review_resolve(
    *, intent_id: UUID, actor: AbstractBaseUser, use_current_rate: bool, now: datetime | None = None
) -> Deposit:
    """Credit a late payment from the review queue at the intent's locked rate or at the current rate.

    Raises:
        IntentClosed: the intent is not in review.
        RateUnavailable: the current rate was asked for and there is none fresh enough.
    """
    now = now or timezone.now()
    with transaction.atomic():
        intent = (
            PaymentIntent.objects.select_for_update(of=("self",)).select_related("owner", "deposit").get(pk=intent_id)
        )
        if intent.status != IntentStatus.REVIEW or not intent.received_units:
            raise IntentClosed(_("This payment is not waiting for review."))
        _lock_order_first(intent)
        pair = pair_get(intent.asset, intent.network)
        rate = current_rate(pair.asset, now=now).usd_per_unit if use_current_rate else intent.rate_usd
        credit: Usd = usd_value(intent.received_units, rate, pair)
        intent.credited_deposit = payment_credit(intent=intent, credit=credit, kind=DepositKind.REVIEW, now=now)
        intent.status = IntentStatus.CONFIRMED
        intent.save(update_fields=["status", "credited_deposit"])
        audit_record(
            actor=actor,
            action="payment.review_credited",
            target=intent,
            after={**_snapshot(intent), "rate_usd": str(rate), "credit_cents": credit.cents},
        )
    deposit = intent.credited_deposit
    if deposit is None:  # payment_credit always returns one; this narrows the type
        raise RuntimeError("review credit made no deposit")
    return deposit


def intents_expire_due(*, now: datetime | None = None) -> int:
    """Mark open intents past their expiry as expired (idempotent: a conditional UPDATE)."""
    now = now or timezone.now()
    return PaymentIntent.objects.filter(status=IntentStatus.AWAITING_PAYMENT, expires_at__lte=now).update(
        status=IntentStatus.EXPIRED
    )
