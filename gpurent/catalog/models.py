"""The GPU models on sale, their lot size, stock and per-term lot prices (DESIGN §2)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from gpurent.core.models import TimeStampedModel
from gpurent.core.money import Usd

from .enums import Stack, Term, Vendor


class GpuModel(TimeStampedModel):
    """A GPU model sold in lots for fixed terms.

    A lot is the unit of sale: one card, or two for B200 (`cards_per_lot`). Memory is per card and is never
    summed over the cards of a lot. `stock_lots` counts the lots that can be sold now. Each term has its own
    price for one lot, in integer USD cents; an order's total is lot price × lots.
    """

    slug = models.SlugField(_("slug"), max_length=50, unique=True)
    name = models.CharField(_("name"), max_length=80, unique=True)
    vendor = models.CharField(_("vendor"), max_length=10, choices=Vendor.choices)
    stack = models.CharField(_("software stack"), max_length=10, choices=Stack.choices)
    memory_mib_per_card = models.PositiveIntegerField(
        _("memory per card (MiB)"), help_text=_("Total memory of one card as the driver reports it, in MiB.")
    )
    cards_per_lot = models.PositiveSmallIntegerField(_("cards per lot"), default=1)
    summary = models.CharField(_("summary"), max_length=200)
    good_for = models.TextField(_("what it is good for"), blank=True)
    glossary_terms = models.JSONField(
        _("glossary terms"), default=list, blank=True, help_text=_("Slugs of the glossary terms that matter for it.")
    )
    stock_lots = models.PositiveIntegerField(_("stock (lots)"), default=0)
    price_3d_cents = models.PositiveIntegerField(_("price of one lot for 3 days (cents)"))
    price_7d_cents = models.PositiveIntegerField(_("price of one lot for 7 days (cents)"))
    price_30d_cents = models.PositiveIntegerField(_("price of one lot for 30 days (cents)"))
    # The machine around the cards of one lot (DESIGN §2 amended by issue 14); empty means "not stated".
    vcpus_per_lot = models.PositiveSmallIntegerField(_("vCPUs per lot"), null=True, blank=True)
    ram_gib_per_lot = models.PositiveIntegerField(_("RAM per lot (GiB)"), null=True, blank=True)
    disk_gib_per_lot = models.PositiveIntegerField(_("NVMe disk per lot (GiB)"), null=True, blank=True)
    network = models.CharField(_("network"), max_length=80, blank=True, help_text=_("e.g. 10 Gbit/s, public IPv4"))
    region = models.CharField(_("region"), max_length=80, blank=True, help_text=_("e.g. EU (Frankfurt)"))
    driver_version = models.CharField(_("driver version"), max_length=40, blank=True)
    stack_version = models.CharField(
        _("CUDA or ROCm version"), max_length=40, blank=True, help_text=_("e.g. CUDA 12.8 or ROCm 6.4")
    )
    interconnect = models.CharField(
        _("interconnect between the cards"), max_length=120, blank=True, help_text=_("For lots of several cards.")
    )
    typical_ready_minutes = models.PositiveIntegerField(_("usual minutes from payment to ready"), null=True, blank=True)
    on_sale = models.BooleanField(_("on sale"), default=True)
    position = models.PositiveSmallIntegerField(_("position in the catalog"), default=0)

    class Meta:
        ordering = ["position", "name"]
        verbose_name = _("GPU model")
        verbose_name_plural = _("GPU models")
        constraints = [
            models.CheckConstraint(condition=Q(stock_lots__gte=0), name="gpu_stock_not_negative"),
            models.CheckConstraint(condition=Q(cards_per_lot__gte=1), name="gpu_cards_per_lot_positive"),
            models.CheckConstraint(condition=Q(memory_mib_per_card__gt=0), name="gpu_memory_positive"),
            models.CheckConstraint(
                condition=Q(price_3d_cents__gt=0) & Q(price_7d_cents__gt=0) & Q(price_30d_cents__gt=0),
                name="gpu_prices_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def memory_gib_per_card(self) -> Decimal:
        """Memory of one card in GiB, to one decimal."""
        return (Decimal(self.memory_mib_per_card) / 1024).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)

    def lot_price(self, term: Term | int) -> Usd:
        """The price of one lot for `term`.

        Raises:
            ValueError: `term` is not one of the fixed terms.
        """
        prices = {
            Term.THREE_DAYS: self.price_3d_cents,
            Term.WEEK: self.price_7d_cents,
            Term.MONTH: self.price_30d_cents,
        }
        try:
            return Usd(prices[Term(term)])
        except (KeyError, ValueError):
            raise ValueError(f"not a rental term: {term!r}") from None

    def lot_prices(self) -> dict[Term, Usd]:
        return {term: self.lot_price(term) for term in Term}

    @property
    def in_stock(self) -> bool:
        return self.stock_lots > 0
