"""Exchange rates entered by operators (the embedded rate source, DESIGN §5 "Rates")."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from gpurent.payments.assets import ASSETS

__all__ = ["ExchangeRate"]


class ExchangeRate(models.Model):
    """One observation of an asset's price in USD: append-only history, the latest `as_of` per asset wins.

    Rates are per asset, not per pair: USDT on Ethereum and USDT on Tron share the USDT rate. A correction is a
    new row (the old one stays, so an intent's locked rate can always be traced to what the operator saw).
    `usd_per_unit` is USD per one whole coin (97000.12 for BTC), an exact decimal, never a float.
    """

    asset = models.CharField(max_length=10, choices=[(symbol, symbol) for symbol in ASSETS])
    usd_per_unit = models.DecimalField(_("USD per unit"), max_digits=30, decimal_places=12)
    source = models.CharField(max_length=200, help_text=_("Where the rate comes from, e.g. an exchange's name."))
    as_of = models.DateTimeField(_("as of"), help_text=_("When the price was observed."))
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("exchange rate")
        verbose_name_plural = _("exchange rates")
        ordering = ["asset", "-as_of", "-id"]
        indexes = [models.Index(fields=["asset", "-as_of", "-id"], name="exchange_rate_latest")]
        constraints = [
            models.CheckConstraint(condition=Q(usd_per_unit__gt=0), name="exchange_rate_positive"),
            models.CheckConstraint(condition=Q(asset__in=ASSETS), name="exchange_rate_asset_known"),
        ]

    def __str__(self) -> str:
        # The rate's digits, not the twelve decimal places it is stored with ("97000", not "97000.000000000000").
        rate = Decimal(self.usd_per_unit).normalize()
        return f"{self.asset} = {rate:f} USD ({self.source}, {self.as_of:%Y-%m-%d %H:%M %Z})"
