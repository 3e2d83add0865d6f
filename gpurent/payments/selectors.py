"""Reads of payments, scoped to their owner (another customer's intent or deposit is a 404)."""

from __future__ import annotations

from uuid import UUID

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from gpurent.core.errors import NotFound
from gpurent.orders.models import Order

from .models import Deposit, IntentStatus, Payment, PaymentIntent

__all__ = [
    "deposit_get_for",
    "deposit_list_for",
    "intent_get_for",
    "intents_for_order",
    "order_references",
    "payment_reported",
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


def payment_reported(intents: list[PaymentIntent]) -> bool:
    """ "Payment reported. Awaiting verification.": some intent carries a report and none is confirmed yet."""
    return any(intent.reported_at for intent in intents) and not any(
        intent.status == IntentStatus.CONFIRMED for intent in intents
    )


def deposit_list_for(owner: AbstractBaseUser) -> QuerySet[Deposit]:
    return Deposit.objects.filter(owner_id=owner.pk).order_by("-created_at")


def deposit_get_for(owner: AbstractBaseUser, ref: str) -> Deposit:
    try:
        return deposit_list_for(owner).get(ref=ref.upper())
    except Deposit.DoesNotExist:
        raise NotFound() from None
