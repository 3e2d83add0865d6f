"""Payments received: one row per transaction output (or token transfer log) that paid an intent."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .intents import Deposit, PaymentIntent

__all__ = ["Payment", "PaymentSource", "PaymentState"]


class PaymentSource(models.TextChoices):
    """Who told the shop about the payment.

    - `operator`: an operator checked the chain (payments desk, `manage.py confirm_payment`).
    - `processor`: a payment processor's signed webhook (BTCPay Server).
    - `chain`: the shop's own watcher of a node."""

    OPERATOR = "operator", _("Operator")
    PROCESSOR = "processor", _("Payment processor")
    CHAIN = "chain", _("Chain watcher")


class PaymentState(models.TextChoices):
    """What happened to the value received.

    - `credited`: credited to the customer's balance at the intent's locked rate (the intent was within its
      time), or at the rate an operator chose in review. `credited_cents` may be 0 for dust: the value still
      counts towards the intent's next payment (credits are the cumulative value at the locked rate, rounded
      down once), so nothing below a cent is lost by splitting.
    - `review`: arrived after the intent's time (or on a rejected intent): waits for an operator to credit it
      at the locked or the current rate. Moves no money until then.
    - `rejected`: an operator declined a payment in review (not ours, reversed on chain). Moved no money."""

    CREDITED = "credited", _("Credited")
    REVIEW = "review", _("In review")
    REJECTED = "rejected", _("Rejected")


class Payment(models.Model):
    """One payment received for one intent: the same (network, txid, index) exists at most once in the shop,
    so it can never be credited twice, whoever reports it (operator, processor, watcher) and for whichever intent.

    `output_index` is the transaction output (UTXO chains) or the log index (ERC-20/TRC-20 transfers); 0 where
    a transaction carries one payment (an ETH or SOL transfer). `amount_units` is an integer of the pair's quote
    unit (10^-quote_decimals of the asset), like the intent's amount. `evidence` keeps what a watcher saw
    (block hash, height, confirmations) for audits and reorg handling.
    """

    network = models.CharField(max_length=20)
    txid = models.CharField(_("transaction id"), max_length=128)
    output_index = models.PositiveIntegerField(_("output or log index"), default=0)
    intent = models.ForeignKey(PaymentIntent, on_delete=models.PROTECT, related_name="payments")
    amount_units = models.PositiveBigIntegerField(_("amount (quote units)"))
    source = models.CharField(max_length=10, choices=PaymentSource.choices)
    state = models.CharField(max_length=10, choices=PaymentState.choices)
    rate_usd = models.DecimalField(max_digits=30, decimal_places=12, null=True, blank=True)
    at_locked_rate = models.BooleanField(default=False)
    credited_cents = models.PositiveBigIntegerField(null=True, blank=True)
    deposit = models.OneToOneField(Deposit, null=True, blank=True, on_delete=models.PROTECT, related_name="payment")
    evidence = models.JSONField(default=dict, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    received_at = models.DateTimeField()
    credited_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("payment")
        verbose_name_plural = _("payments")
        ordering = ["received_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["network", "txid", "output_index"], name="payment_once_per_network"),
            models.CheckConstraint(condition=Q(amount_units__gt=0), name="payment_amount_positive"),
            models.CheckConstraint(condition=Q(source__in=PaymentSource.values), name="payment_source_valid"),
            models.CheckConstraint(condition=Q(state__in=PaymentState.values), name="payment_state_valid"),
            models.CheckConstraint(
                condition=Q(
                    state__in=[PaymentState.REVIEW, PaymentState.REJECTED],
                    credited_cents__isnull=True,
                    deposit__isnull=True,
                )
                | Q(state=PaymentState.CREDITED, credited_cents__isnull=False, rate_usd__isnull=False),
                name="payment_credited_has_amount",
            ),
        ]
        indexes = [
            models.Index(fields=["state", "received_at"]),
            # The operator's dashboard: money credited in a period (backoffice/dashboard, decision 0416).
            models.Index(fields=["credited_at"], name="payment_credited_at"),
        ]

    def __str__(self) -> str:
        return f"{self.network}:{self.txid}:{self.output_index}"
