"""Withdrawals: a customer's balance paid out in crypto to an address of theirs (docs/money.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

__all__ = ["Payout", "PayoutStatus"]


class PayoutStatus(models.TextChoices):
    """- `requested`: the amount left the balance at once (`payout:<ref>`, to `suspense:payouts`); an operator
      sends it or rejects it.
    - `sent`: an operator sent the amount minus the fee and recorded the transaction id (final).
    - `rejected`: an operator declined it; the whole amount went back to the balance (final)."""

    REQUESTED = "requested", pgettext_lazy("withdrawal status", "Requested")
    SENT = "sent", pgettext_lazy("withdrawal status", "Sent")
    REJECTED = "rejected", pgettext_lazy("withdrawal status", "Rejected")


class Payout(models.Model):
    """A withdrawal of `amount_cents` from the customer's balance to `address` on one pair's network.

    The customer receives `amount_cents - fee_cents` worth of the asset, at the rate of the moment it is sent;
    the operator records what was sent (`sent_units`, the pair's quote units) and the transaction id.
    """

    ref = models.CharField(_("reference"), max_length=16, unique=True)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="payouts")
    asset = models.CharField(max_length=10)
    network = models.CharField(max_length=20)
    address = models.CharField(max_length=128)
    amount_cents = models.PositiveBigIntegerField(_("amount (cents)"))
    fee_cents = models.PositiveBigIntegerField(_("fee (cents)"), default=0)
    status = models.CharField(max_length=10, choices=PayoutStatus.choices, default=PayoutStatus.REQUESTED)
    txid = models.CharField(_("transaction id"), max_length=128, blank=True)
    sent_units = models.PositiveBigIntegerField(_("sent (quote units)"), null=True, blank=True)
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        verbose_name = _("withdrawal")
        verbose_name_plural = _("withdrawals")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["owner", "id"]), models.Index(fields=["status", "created_at"])]
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=models.F("fee_cents")), name="payout_more_than_fee"),
            models.CheckConstraint(condition=Q(status__in=PayoutStatus.values), name="payout_status_valid"),
            models.CheckConstraint(
                condition=~Q(status=PayoutStatus.SENT) | (~Q(txid="") & Q(sent_units__gt=0)),
                name="payout_sent_has_txid",
            ),
        ]

    def __str__(self) -> str:
        return self.ref

    @property
    def net_cents(self) -> int:
        """What the customer receives, in USD cents: the amount minus the fee."""
        return self.amount_cents - self.fee_cents
