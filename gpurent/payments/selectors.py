"""Reads of payments, scoped to their owner (another customer's intent or deposit is a 404)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from uuid import UUID

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, Q, QuerySet

from gpurent.core.errors import NotFound
from gpurent.ledger.models import LedgerTransfer
from gpurent.orders.models import Order

from .models import Deposit, IntentStatus, Payment, PaymentIntent, PaymentState, Payout

__all__ = [
    "deposit_get_for",
    "deposit_list_for",
    "intent_awaits_verification",
    "intent_get_for",
    "intents_for_order",
    "intents_partly_paid",
    "intents_to_verify",
    "order_ledger_references",
    "order_references",
    "payment_reported",
    "payout_get_for",
    "payout_list_for",
]


def intent_get_for(owner: AbstractBaseUser, intent_id: UUID | str) -> PaymentIntent:
    """Raises NotFound for a missing intent, a malformed id, or another customer's intent."""
    try:
        return PaymentIntent.objects.select_related("order", "deposit").get(pk=intent_id, owner_id=owner.pk)
    except (PaymentIntent.DoesNotExist, ValueError, ValidationError):  # ValidationError: not a UUID
        raise NotFound() from None


def intents_for_order(order: Order) -> QuerySet[PaymentIntent]:
    """The order's intents, newest first (the history of its payment instructions)."""
    return PaymentIntent.objects.filter(order_id=order.pk).order_by("-created_at")


def order_references(order: Order) -> list[str]:
    """Every ledger reference that may touch the order: its debit, its refund, and the deposit of each payment
    received for its intents."""
    deposits = Payment.objects.filter(intent__order_id=order.pk, deposit__isnull=False).values_list(
        "deposit__ref", flat=True
    )
    return [f"order:{order.ref}", f"refund:{order.ref}"] + [f"deposit:{ref}" for ref in deposits]


def order_ledger_references(orders: Sequence[Order]) -> dict[int, list[str]]:
    """The ledger references that moved each order's money, oldest first (orders calls it through
    `orders.payments_port` for its CSV and API): two queries, whatever the number of orders."""
    candidates: dict[str, int] = {}
    for order in orders:
        candidates[f"order:{order.ref}"] = order.pk
        candidates[f"refund:{order.ref}"] = order.pk
    deposits = Payment.objects.filter(intent__order_id__in=[order.pk for order in orders], deposit__isnull=False)
    for order_id, ref in deposits.values_list("intent__order_id", "deposit__ref"):
        candidates[f"deposit:{ref}"] = order_id
    found: dict[int, list[str]] = {order.pk: [] for order in orders}
    moved = LedgerTransfer.objects.filter(reference__in=list(candidates)).order_by("id")
    for reference in moved.values_list("reference", flat=True):
        found[candidates[reference]].append(reference)
    return found


def intent_awaits_verification(intent: PaymentIntent) -> bool:
    """The customer reported paying this intent and nothing has been decided yet: no payment recorded on it,
    not confirmed, rejected or closed. Uses `intent.payments.all()` (prefetch it for lists)."""
    return (
        intent.reported_at is not None
        and intent.status in (IntentStatus.AWAITING_PAYMENT, IntentStatus.EXPIRED)
        and not intent.payments.all()
    )


def intents_to_verify() -> Q:
    """`intent_awaits_verification` as a filter of `PaymentIntent` rows: reported, open or expired, and no payment
    recorded on it. The payments desk's "reported" queue, the dashboard's "Payments reported, to verify" and
    `confirm_payment REF` all read it, so they agree on what is still to verify."""
    return Q(reported_at__isnull=False, status__in=[IntentStatus.AWAITING_PAYMENT, IntentStatus.EXPIRED]) & ~Q(
        Exists(Payment.objects.filter(intent_id=OuterRef("pk")))
    )


def intents_partly_paid() -> Q:
    """Open or expired intents that received part of their amount (credited to the balance): they wait for the
    customer to send the rest, not for an operator (the payments desk's "partly paid" queue)."""
    return Q(status__in=[IntentStatus.AWAITING_PAYMENT, IntentStatus.EXPIRED]) & Q(
        Exists(Payment.objects.filter(intent_id=OuterRef("pk"), state=PaymentState.CREDITED))
    )


def payment_reported(intents: Iterable[PaymentIntent]) -> bool:
    """ "Payment reported. Awaiting verification.": some intent's report still waits for a decision (another
    intent's partial confirmation does not hide it)."""
    return any(intent_awaits_verification(intent) for intent in intents)


def deposit_list_for(owner: AbstractBaseUser) -> QuerySet[Deposit]:
    return Deposit.objects.filter(owner_id=owner.pk).order_by("-created_at")


def deposit_get_for(owner: AbstractBaseUser, ref: str) -> Deposit:
    try:
        return deposit_list_for(owner).get(ref=ref.upper())
    except Deposit.DoesNotExist:
        raise NotFound() from None


def payout_list_for(owner: AbstractBaseUser) -> QuerySet[Payout]:
    """The customer's withdrawals, newest first."""
    return Payout.objects.filter(owner_id=owner.pk).order_by("-created_at", "-id")


def payout_get_for(owner: AbstractBaseUser, ref: str) -> Payout:
    """Raises NotFound for a missing withdrawal or another customer's."""
    try:
        return payout_list_for(owner).get(ref=ref.upper())
    except Payout.DoesNotExist:
        raise NotFound() from None
