"""Receiving addresses loaded by operators: a pool of single-use addresses and shared fallbacks per network."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from gpurent.payments.addresses import validate_address
from gpurent.payments.assets import NETWORKS
from gpurent.payments.errors_crypto import InvalidAddress

__all__ = ["AddressMode", "ReceivingAddress"]


class AddressMode(models.TextChoices):
    """How an address is handed out (DESIGN §5 "each open intent must be attributable without guessing").

    - `pool`: single use. Given to exactly one intent, ever (`allocated_at` is set then and never cleared),
      so any payment that reaches it belongs to that intent, even a late or partial one.
    - `shared`: given to many intents; each open intent on it gets an amount no other open intent on it has,
      and the payment is matched on the exact amount. The fallback when the pool of a network is empty.
    """

    POOL = "pool", _("Single use (pool)")
    SHARED = "shared", _("Shared (unique amounts)")


class ReceivingAddress(models.Model):
    """An address of the shop on one network. Tokens (ERC-20, TRC-20) are received on their network's
    addresses. Rows are never deleted once used: `active=False` retires one."""

    network = models.CharField(max_length=20, choices=list(NETWORKS.items()))
    address = models.CharField(max_length=128)
    memo = models.CharField(max_length=64, blank=True, help_text=_("Memo or tag, only where the network has one."))
    mode = models.CharField(max_length=10, choices=AddressMode.choices, default=AddressMode.POOL)
    allocated_at = models.DateTimeField(null=True, blank=True, help_text=_("When a pool address was given out."))
    label = models.CharField(max_length=100, blank=True, help_text=_("For operators: the wallet it belongs to."))
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("receiving address")
        verbose_name_plural = _("receiving addresses")
        ordering = ["network", "mode", "id"]
        indexes = [models.Index(fields=["network", "mode", "active", "allocated_at"], name="receiving_address_free")]
        constraints = [
            models.UniqueConstraint(fields=["network", "address", "memo"], name="receiving_address_unique"),
            models.CheckConstraint(condition=Q(network__in=list(NETWORKS)), name="receiving_address_network_known"),
            models.CheckConstraint(condition=Q(mode__in=AddressMode.values), name="receiving_address_mode_valid"),
            models.CheckConstraint(
                condition=Q(mode=AddressMode.POOL) | Q(allocated_at__isnull=True),
                name="receiving_address_shared_never_allocated",
            ),
        ]

    def __str__(self) -> str:
        memo = f" memo {self.memo}" if self.memo else ""
        return f"{self.network} {self.address}{memo} ({self.mode})"

    def clean(self) -> None:
        """Check the address on its network and store its canonical form (for admin and model forms)."""
        super().clean()
        try:
            self.address = validate_address(self.network, self.address)
        except InvalidAddress as error:
            raise ValidationError({"address": error.message}) from error
