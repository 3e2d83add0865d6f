"""The customer's balance seen from payments: the deposit rows that credit it, and how much of it orders hold.

Read-only but for `deposit_row_create` (a new deposit row with its reference; the caller posts its ledger transfer).
The balance itself is the ledger's (`gpurent.ledger.selectors.balance_for`); what is **held** is derived from the
open intents' balance shares, so nothing is ever released by hand (decision 0373).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from gpurent.core.money import Usd
from gpurent.core.references import new_reference
from gpurent.ledger.selectors import balance_for
from gpurent.orders.enums import PaymentStatus
from gpurent.orders.models import Order

from ..models import Deposit, IntentStatus, PaymentIntent

__all__ = [
    "BalanceFigures",
    "balance_available",
    "balance_figures",
    "balance_held",
    "deposit_row_create",
    "spendable_for_order",
]


def deposit_row_create(**fields: object) -> Deposit:
    """A new deposit row with a fresh `D-…` reference (retried on the rare clash): the row only, for a top-up
    (`services.deposit_create`, which checks the amount and the limits first) or a credited payment."""
    for _attempt in range(5):
        try:
            with transaction.atomic():
                return Deposit.objects.create(ref=new_reference("D"), **fields)
        except IntegrityError:
            continue
    raise RuntimeError("could not find a free deposit reference")


def balance_held(owner_id: int, *, now: datetime | None = None, except_order_id: int | None = None) -> Usd:
    """The balance held for orders by their open intents (awaiting payment, before expiry, order unpaid):
    the balance share each intent states. Derived from the intent rows; nothing to release by hand."""
    now = now or timezone.now()
    held = (
        PaymentIntent.objects.filter(
            owner_id=owner_id,
            status=IntentStatus.AWAITING_PAYMENT,
            expires_at__gt=now,
            order__payment_status=PaymentStatus.AWAITING_PAYMENT,
            balance_share_cents__gt=0,
        )
        .exclude(order_id=except_order_id or 0)
        .values("order_id")
        .annotate(share=Max("balance_share_cents"))
    )
    # An order with several open intents holds its largest share once, not the sum.
    return Usd(sum(row["share"] for row in held))


def spendable_for_order(order: Order) -> Usd:
    """What the order's owner may spend on it from the balance: the balance minus what other orders hold."""
    return balance_for(order.owner) - balance_held(order.owner_id, except_order_id=order.pk)


@dataclass(frozen=True)
class BalanceFigures:
    """A customer's balance in the three figures the balance page, the API and the withdrawal check show
    (decision 0373): `balance` is the whole balance (the ledger's, holds included), `held` what orders' open
    payment instructions hold of it, `spendable` the rest: what a withdrawal or a new order may take."""

    balance: Usd
    held: Usd

    @property
    def spendable(self) -> Usd:
        return self.balance - self.held


def balance_figures(owner: AbstractBaseUser, *, now: datetime | None = None) -> BalanceFigures:
    """The one source of the balance's figures (see `BalanceFigures`)."""
    return BalanceFigures(balance=balance_for(owner), held=balance_held(owner.pk, now=now))


def balance_available(owner: AbstractBaseUser) -> Usd:
    """The balance minus every hold: what a withdrawal or a new order may take."""
    return balance_figures(owner).spendable
