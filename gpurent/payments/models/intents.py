"""Deposits and payment intents (DESIGN §5)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from gpurent.orders.models import Order

__all__ = ["Deposit", "DepositKind", "DepositStatus", "IntentStatus", "PaymentIntent"]


class DepositKind(models.TextChoices):
    """Where a deposit comes from.

    - `top_up`: the customer asked to add a USD amount to the balance and pays it through intents.
    - `order_payment`: made when a payment for an order's intent is confirmed; the order is then paid from the
      balance if it covers the total.
    - `review`: made when an operator credits a payment that arrived after its intent expired.
    """

    TOP_UP = "top_up", _("Top-up")
    ORDER_PAYMENT = "order_payment", _("Order payment")
    REVIEW = "review", _("Reviewed late payment")


class DepositStatus(models.TextChoices):
    """- `pending`: nothing received yet (a top-up waiting for its payment). Adds nothing to the balance.
    - `credited`: the received value was credited to the balance, once (ledger reference `deposit:<ref>`).
    - `cancelled`: a top-up that will not be paid."""

    PENDING = "pending", _("Pending")
    CREDITED = "credited", _("Credited")
    CANCELLED = "cancelled", _("Cancelled")


class Deposit(models.Model):
    """Money coming in to a customer's USD balance. Only confirmation credits it; recording it adds nothing."""

    ref = models.CharField(_("reference"), max_length=16, unique=True)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="deposits")
    kind = models.CharField(max_length=20, choices=DepositKind.choices)
    status = models.CharField(max_length=20, choices=DepositStatus.choices, default=DepositStatus.PENDING)
    requested_cents = models.PositiveBigIntegerField(_("requested (cents)"), null=True, blank=True)
    credited_cents = models.PositiveBigIntegerField(_("credited (cents)"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    credited_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("deposit")
        verbose_name_plural = _("deposits")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(status=DepositStatus.CREDITED) | Q(credited_cents__isnull=False),
                name="deposit_credited_has_amount",
            ),
            models.CheckConstraint(
                condition=~Q(kind=DepositKind.TOP_UP) | Q(requested_cents__gt=0), name="deposit_top_up_has_amount"
            ),
        ]

    def __str__(self) -> str:
        return self.ref


class IntentStatus(models.TextChoices):
    """- `awaiting_payment`: open until `expires_at`; the customer sends exactly `amount` to `address`.
    - `expired`: the time passed with no confirmed payment. A payment first seen before the expiry is still
      credited at the locked rate when it reaches its depth (within `PAYMENTS_LATE_CONFIRMATION_HOURS`,
      decision 0380); one first seen later goes to `review`.
    - `confirmed`: a payment was verified and credited (final).
    - `rejected`: an operator found no valid payment (final).
    - `review`: a payment was first seen after expiry (or confirmed too long after it); an operator decides
      the credit (no automatic credit).
    - `closed`: its order was paid (through another intent or the balance) or cancelled; it takes no new
      payment on screen or in the API, and anything still sent to it is credited to the balance.

    An intent may receive several payments (rows of `Payment`): it stays `awaiting_payment` while what it
    received at its locked rate is less than its amount, and becomes `confirmed` once it is all there.

    "Payment reported" is not a status: `reported_at` is set when the customer says they paid."""

    AWAITING_PAYMENT = "awaiting_payment", _("Awaiting payment")
    EXPIRED = "expired", _("Expired")
    CONFIRMED = "confirmed", _("Confirmed")
    REJECTED = "rejected", _("Rejected")
    REVIEW = "review", _("In review")
    CLOSED = "closed", _("Closed")


class PaymentIntent(models.Model):
    """Instructions to pay one order or one top-up in one asset on one network: an exact amount to one address.

    The quote (pair, amount, rate, USD amount, address, memo, expiry) never changes after creation; new
    instructions are a new intent. `amount_units` is an integer in the pair's quote unit
    (10^-quote_decimals of the asset), rounded up from the USD amount at `rate_usd`.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="payment_intents")
    order = models.ForeignKey(Order, null=True, blank=True, on_delete=models.PROTECT, related_name="intents")
    deposit = models.ForeignKey(Deposit, null=True, blank=True, on_delete=models.PROTECT, related_name="intents")
    asset = models.CharField(max_length=10)
    network = models.CharField(max_length=20)
    amount_units = models.PositiveBigIntegerField(_("amount (quote units)"))
    rate_usd = models.DecimalField(_("USD per unit of the asset"), max_digits=30, decimal_places=12)
    usd_cents = models.PositiveBigIntegerField(_("USD amount (cents)"))
    # The part of the order's total the customer's balance covers, held for the order while this intent is
    # open (awaiting payment and before `expires_at`): other orders and withdrawals cannot spend it.
    balance_share_cents = models.PositiveBigIntegerField(_("from the balance (cents)"), default=0)
    address = models.CharField(max_length=128)
    memo = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    status = models.CharField(max_length=20, choices=IntentStatus.choices, default=IntentStatus.AWAITING_PAYMENT)
    reported_at = models.DateTimeField(null=True, blank=True)
    verified_at = models.DateTimeField(null=True, blank=True)
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # A payment processor's invoice carries this intent (docs/decisions/0147): `processor` is set when the intent
    # is issued; the invoice id, its checkout link and the processor's address (`address`, empty until then)
    # are stored once, in a second short transaction after the processor answered.
    processor = models.CharField(max_length=20, blank=True, default="")
    processor_invoice_id = models.CharField(max_length=100, blank=True, default="")
    checkout_link = models.URLField(max_length=500, blank=True, default="")

    class Meta:
        verbose_name = _("payment intent")
        verbose_name_plural = _("payment intents")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "expires_at"]), models.Index(fields=["address", "amount_units"])]
        constraints = [
            models.CheckConstraint(
                condition=(Q(order__isnull=False) & Q(deposit__isnull=True))
                | (Q(order__isnull=True) & Q(deposit__isnull=False)),
                name="intent_pays_exactly_one_thing",
            ),
            models.CheckConstraint(condition=Q(amount_units__gt=0), name="intent_amount_positive"),
            models.CheckConstraint(condition=Q(rate_usd__gt=0), name="intent_rate_positive"),
            models.CheckConstraint(condition=Q(status__in=IntentStatus.values), name="intent_status_valid"),
            models.UniqueConstraint(
                fields=["processor", "processor_invoice_id"],
                condition=~Q(processor_invoice_id=""),
                name="intent_processor_invoice_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.asset}/{self.network} {self.amount_units} → {self.address}"
