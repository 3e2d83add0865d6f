"""Receiving a payment: the one function that records money that arrived and credits it exactly once.

Every path that learns of a payment — the operator's payments desk, `manage.py confirm_payment`, the BTCPay
webhook, the chain watchers — calls `payment_receive`. See docs/money.md for where money moves and which
locks a money action takes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from gpurent.core.audit import audit_record
from gpurent.core.errors import InvalidRequest, NotFound
from gpurent.core.locks import lock_rows
from gpurent.core.money import Usd
from gpurent.ledger.models import LedgerAccount
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.enums import PaymentStatus
from gpurent.orders.extensions import extension_payable
from gpurent.orders.models import Order

from ..assets import pair_get, usd_value
from ..balance.figures import deposit_row_create, spendable_for_order
from ..errors import IntentAlreadySettled, IntentClosed, PaymentAlreadyCredited
from ..models import (
    Deposit,
    DepositKind,
    DepositStatus,
    IntentStatus,
    Payment,
    PaymentIntent,
    PaymentSource,
    PaymentState,
)
from ..notify import customer_payment_email
from ..services import order_pay_from_balance

__all__ = [
    "TXID_MAX_LENGTH",
    "credited_so_far",
    "locked_rate_applies",
    "money_lock_for_intent",
    "payment_receive",
    "payment_where",
    "payments_review_reject",
    "payments_review_resolve",
]

# The intents a payment first seen before their expiry is credited to at the locked rate: not one waiting for
# an operator's review or rejected by one (`locked_rate_applies`).
_LOCKED_RATE_STATUSES = {
    IntentStatus.AWAITING_PAYMENT,
    IntentStatus.EXPIRED,
    IntentStatus.CONFIRMED,
    IntentStatus.CLOSED,
}
_HEX = re.compile(r"^(0x)?[0-9a-fA-F]+$")
# The longest transaction id a payment (and a chain observation) stores.
TXID_MAX_LENGTH = Payment._meta.get_field("txid").max_length or 0


def normalise_txid(txid: str) -> str:
    """Transaction ids compare case-insensitively where they are hex (Bitcoin, Ethereum, Tron): one form."""
    txid = txid.strip()
    return txid.lower() if _HEX.match(txid) else txid


def money_lock_for_intent(intent_id: UUID) -> PaymentIntent:
    """Lock what a payment of this intent touches, in the money lock order (order or top-up, intent, customer
    account), and return the intent read under the lock.

    Raises:
        NotFound: no such intent.
    """
    keys = (
        PaymentIntent.objects.filter(pk=intent_id)
        .values("order_id", "order__extends_id", "deposit_id", "owner_id")
        .first()
    )
    if keys is None:
        raise NotFound()
    account = customer_account(keys["owner_id"])
    lock_rows(
        # An extension's payment moves its rental's term end: the rental too, by key (rental first).
        (Order, [keys["order_id"], keys["order__extends_id"]]),
        (Deposit, [keys["deposit_id"]]),
        (PaymentIntent, [intent_id]),
        (LedgerAccount, [account.pk]),
    )
    return PaymentIntent.objects.select_related("owner", "deposit", "order").get(pk=intent_id)


def locked_rate_applies(intent: PaymentIntent, *, seen_at: datetime, now: datetime) -> bool:
    """The first-seen rule (docs/money.md, decision 0380): a payment is credited at the intent's locked rate
    when it was first seen before `expires_at` and reaches its confirmation depth (`now`) no later than
    `PAYMENTS_LATE_CONFIRMATION_HOURS` after it, unless the intent waits for review or was rejected. Any other
    payment — first seen after expiry, or confirmed later than that — goes to review."""
    grace = timedelta(hours=settings.PAYMENTS_LATE_CONFIRMATION_HOURS)
    return seen_at < intent.expires_at and now <= intent.expires_at + grace and intent.status in _LOCKED_RATE_STATUSES


def payment_receive(
    *,
    intent_id: UUID,
    txid: str,
    amount_units: int,
    source: PaymentSource | str,
    network: str | None = None,
    output_index: int = 0,
    actor: AbstractBaseUser | None = None,
    evidence: Mapping[str, Any] | None = None,
    seen_at: datetime | None = None,
    now: datetime | None = None,
    refuse_if_settled: bool = False,
) -> Payment:
    """Record that `amount_units` (the pair's quote units) arrived for `intent_id` in transaction `txid`
    (output or log `output_index`) on `network`, and credit it exactly once. Atomic; safe under concurrency.

    - The same (network, txid, output_index) again for the same intent and amount returns the existing row and
      changes nothing (a redelivery, a second worker, a watcher that sees the block again).
    - First seen before the intent's `expires_at` (`seen_at`: a chain watcher's first sight of the transaction,
      below its depth; else `now`) and recorded at most `PAYMENTS_LATE_CONFIRMATION_HOURS` after it, unless
      the intent waits for review or was rejected (`locked_rate_applies`), the payment is credited to the
      owner's balance at the intent's locked rate, rounded down — on the cumulative value of the intent's
      locked-rate payments, so dust below a cent is carried, never lost. Each non-zero credit is a deposit of
      its own (`deposit:<ref>`; a top-up's first one credits the top-up). The intent becomes `confirmed` once
      what it received reaches its amount; a partial payment leaves it open; dust never closes it.
    - For an order's intent, the order is then paid from the balance in the same transaction if what the
      customer may spend covers it, and the order's other open intents are closed. A payment to a closed or
      fully paid intent is credited to the balance all the same (over-payment stays there).
    - Otherwise (first seen after expiry, confirmed too long after it): the payment waits in the review queue
      (`state=review`, no ledger movement); an operator credits it at the locked or the current rate
      (`payments_review_resolve`).
    The customer is e-mailed after commit. Locks: see `money_lock_for_intent` (no network call inside).

    Args:
        source: `operator`, `processor` or `chain` (PaymentSource).
        network: the network the transaction is on; defaults to the intent's; must match it.
        evidence: what a watcher saw (block hash, height, confirmations), kept on the row.
        seen_at: when the payment was first seen (never later than `now`, its default).
        refuse_if_settled: an operator's confirmation that is not marked as an additional transaction: refused
            (IntentAlreadySettled) when the intent is already confirmed or closed, read under its lock (the
            same payment again still returns its row).

    Raises:
        InvalidRequest: no txid or one longer than the column, a non-positive amount, an unknown source or
            another network than the intent's.
        NotFound: no such intent.
        PaymentAlreadyCredited (409 `payment_already_credited`): this payment was recorded for another intent
            or with another amount; nothing changes. Its `detail` says where (`payment_where`).
        IntentAlreadySettled (409): `refuse_if_settled` and the intent is confirmed or closed; nothing changes.
    """
    txid = normalise_txid(txid)
    if not txid or type(amount_units) is not int or amount_units <= 0 or output_index < 0:
        raise InvalidRequest(_("A transaction id and a positive received amount are required."))
    if len(txid) > TXID_MAX_LENGTH:
        # Refused before any write: on PostgreSQL the row would fail with a DataError (a 500, retried forever).
        raise InvalidRequest(_("This transaction id is too long."))
    if source not in PaymentSource.values:
        raise InvalidRequest("unknown payment source")
    now = now or timezone.now()
    seen_at = min(seen_at or now, now)
    with transaction.atomic():
        intent = money_lock_for_intent(intent_id)
        network = (network or intent.network).strip().lower()
        if network != intent.network:
            raise InvalidRequest(_("This payment is on another network than its instructions."))
        existing = Payment.objects.filter(network=network, txid=txid, output_index=output_index).first()
        if existing is not None:
            if existing.intent_id == intent.pk and existing.amount_units == amount_units:
                return existing
            raise PaymentAlreadyCredited(detail=payment_where(existing))
        if refuse_if_settled and intent.status in (IntentStatus.CONFIRMED, IntentStatus.CLOSED):
            raise IntentAlreadySettled(
                f"This payment is already {intent.status}"
                + (f" ({so_far})" if (so_far := credited_so_far(intent)) else "")
                + "; a second transaction is recorded on it only as an additional one."
            )
        try:
            with transaction.atomic():
                payment = Payment.objects.create(
                    network=network,
                    txid=txid,
                    output_index=output_index,
                    intent=intent,
                    amount_units=amount_units,
                    source=source,
                    state=PaymentState.REVIEW,
                    evidence=dict(evidence or {}),
                    recorded_by_id=actor.pk if actor is not None and actor.is_authenticated else None,
                    received_at=now,
                )
        except IntegrityError:
            # The same payment recorded at this moment for another intent (whose locks we do not hold).
            raise PaymentAlreadyCredited() from None
        if locked_rate_applies(intent, seen_at=seen_at, now=now):
            _credit_at_locked_rate(intent, payment, actor=actor, now=now)
        else:
            # The rate was locked for payments sent before expiry only: an operator decides how to credit this.
            if intent.status in (IntentStatus.AWAITING_PAYMENT, IntentStatus.EXPIRED, IntentStatus.REJECTED):
                intent.status = IntentStatus.REVIEW
                intent.save(update_fields=["status"])
            customer_payment_email(payment, "late_payment_received")
        audit_record(actor=actor, action=f"payment.{payment.state}", target=intent, after=payment_snapshot(payment))
    return payment


def payment_where(payment: Payment) -> str:
    """Where a payment was recorded, for operators: "recorded for order R-6853-2JZ2 (deposit D-9KQ5-YNYQ) on 06 Dec
    2026, 17:05 UTC"."""
    intent = PaymentIntent.objects.select_related("order", "deposit").get(pk=payment.intent_id)
    target = f"order {intent.order.ref}" if intent.order else f"top-up {intent.deposit.ref if intent.deposit else ''}"
    deposit = payment.deposit.ref if payment.deposit is not None else None
    where = f"recorded for {target}" + (f" (deposit {deposit})" if deposit else f" ({payment.get_state_display()})")
    when = timezone.localtime(payment.received_at).strftime("%d %b %Y, %H:%M %Z")
    return f"{where} on {when}"


def credited_so_far(intent: PaymentIntent) -> str:
    """What the intent's payments credited, for operators: "$62.00 credited as D-9KQ5-YNYQ"; "" where nothing."""
    credited = list(intent.payments.filter(state=PaymentState.CREDITED).select_related("deposit"))
    if not credited:
        return ""
    cents = sum(p.credited_cents or 0 for p in credited)
    refs = ", ".join(p.deposit.ref for p in credited if p.deposit)
    return f"{Usd(cents).display()} credited" + (f" as {refs}" if refs else "")


def payment_snapshot(payment: Payment) -> dict[str, object]:
    return {
        "payment": str(payment),
        "source": payment.source,
        "amount_units": payment.amount_units,
        "state": payment.state,
        "credited_cents": payment.credited_cents,
        "deposit": payment.deposit.ref if payment.deposit else None,
    }


def _credit_at_locked_rate(
    intent: PaymentIntent, payment: Payment, *, actor: AbstractBaseUser | None, now: datetime
) -> None:
    pair = pair_get(intent.asset, intent.network)
    earlier = (
        intent.payments.filter(state=PaymentState.CREDITED, at_locked_rate=True)
        .exclude(pk=payment.pk)
        .aggregate(units=Sum("amount_units"))["units"]
        or 0
    )
    # Cumulative: credited so far is value(earlier), rounded down once; this payment adds what it brings over.
    credit = Usd(
        usd_value(earlier + payment.amount_units, intent.rate_usd, pair).cents
        - usd_value(earlier, intent.rate_usd, pair).cents
    )
    _credit(intent, payment, credit=credit, rate=intent.rate_usd, locked=True, now=now)
    # An expired intent too: its payment was first seen in time and reached its depth after the expiry sweep.
    open_statuses = (IntentStatus.AWAITING_PAYMENT, IntentStatus.EXPIRED)
    if intent.status in open_statuses and earlier + payment.amount_units >= intent.amount_units:
        intent.status = IntentStatus.CONFIRMED
        intent.verified_at = now
        intent.verified_by_id = actor.pk if actor is not None and actor.is_authenticated else None
        intent.save(update_fields=["status", "verified_at", "verified_by"])
    _pay_order_if_covered(intent, actor=actor)


def _credit(intent: PaymentIntent, payment: Payment, *, credit: Usd, rate: Any, locked: bool, now: datetime) -> None:
    """Credit `credit` for `payment` as a deposit of its own (a pending top-up's first credit takes the top-up)."""
    deposit: Deposit | None = None
    if credit.cents > 0:
        top_up = intent.deposit
        if top_up is not None and top_up.status == DepositStatus.PENDING and top_up.kind == DepositKind.TOP_UP:
            deposit = top_up
        else:
            kind = (
                DepositKind.REVIEW
                if not locked
                else (DepositKind.TOP_UP if intent.deposit_id else DepositKind.ORDER_PAYMENT)
            )
            deposit = deposit_row_create(owner_id=intent.owner_id, kind=kind)
        transfer_post(
            reference=f"deposit:{deposit.ref}",
            debit=system_account(EXTERNAL_CRYPTO),
            credit=customer_account(intent.owner),
            amount=credit,
            memo=f"{intent.asset} on {intent.network}, {payment}"[:200],
        )
        Deposit.objects.filter(pk=deposit.pk).update(
            status=DepositStatus.CREDITED, credited_cents=credit.cents, credited_at=now
        )
        deposit.refresh_from_db()
    payment.state = PaymentState.CREDITED
    payment.rate_usd = rate
    payment.at_locked_rate = locked
    payment.credited_cents = credit.cents
    payment.deposit = deposit
    payment.credited_at = now
    payment.save(update_fields=["state", "rate_usd", "at_locked_rate", "credited_cents", "deposit", "credited_at"])
    if credit.cents > 0:
        customer_payment_email(payment, "payment_credited")


def _pay_order_if_covered(intent: PaymentIntent, *, actor: AbstractBaseUser | None) -> None:
    if intent.order_id is None:
        return
    order = Order.objects.get(pk=intent.order_id)
    # An extension whose rental has ended cannot be paid: the payment stays in the balance.
    payable = order.payment_status == PaymentStatus.AWAITING_PAYMENT and extension_payable(order)
    if payable and spendable_for_order(order) >= order.total:
        order_pay_from_balance(order=order, owner=intent.owner)


def payments_review_resolve(
    *, intent_id: UUID, actor: AbstractBaseUser, use_current_rate: bool, now: datetime | None = None
) -> list[Payment]:
    """Credit the intent's payments waiting in review, at its locked rate or at the current rate.

    The current rate is read before any lock is taken (the rate source may be an HTTP call).

    Raises:
        IntentClosed: no payment of this intent waits for review.
        RateUnavailable: the current rate was asked for and there is none fresh enough.
    """
    from ..rates import current_rate  # rates imports settings-selected sources; kept out of import time

    now = now or timezone.now()
    asset = PaymentIntent.objects.filter(pk=intent_id).values_list("asset", flat=True).first()
    if asset is None:
        raise NotFound()
    current = current_rate(asset, now=now).usd_per_unit if use_current_rate else None
    with transaction.atomic():
        intent = money_lock_for_intent(intent_id)
        waiting = list(intent.payments.filter(state=PaymentState.REVIEW))
        if not waiting:
            raise IntentClosed(_("This payment is not waiting for review."))
        rate = current if current is not None else intent.rate_usd
        pair = pair_get(intent.asset, intent.network)
        for payment in waiting:
            _credit(
                intent, payment, credit=usd_value(payment.amount_units, rate, pair), rate=rate, locked=False, now=now
            )
            audit_record(
                actor=actor,
                action="payment.review_credited",
                target=intent,
                after={**payment_snapshot(payment), "rate_usd": str(rate)},
            )
        if intent.status == IntentStatus.REVIEW:
            intent.status = IntentStatus.CONFIRMED
            intent.save(update_fields=["status"])
        _pay_order_if_covered(intent, actor=actor)
    return waiting


def payments_review_reject(
    *, intent_id: UUID, actor: AbstractBaseUser | None, reason: str, now: datetime | None = None
) -> list[Payment]:
    """Decline the intent's payments waiting in review (not ours, reversed on chain): nothing is credited."""
    with transaction.atomic():
        intent = money_lock_for_intent(intent_id)
        waiting = list(intent.payments.filter(state=PaymentState.REVIEW))
        for payment in waiting:
            payment.state = PaymentState.REJECTED
            payment.save(update_fields=["state"])
            customer_payment_email(payment, "late_payment_rejected")
            audit_record(
                actor=actor,
                action="payment.review_rejected",
                target=intent,
                after={**payment_snapshot(payment), "reason": reason},
            )
    return waiting
