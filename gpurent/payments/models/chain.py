"""Watch-only keys, the addresses derived from them, and what the chain watchers saw (docs/decisions/0140).

- `ExtendedPublicKey`: an operator's account key for one network; at most one active per network.
- `DerivedAddress`: one index of a key, given to exactly one intent; indexes are never reused.
- `ChainCursor`: where a watcher resumes (the last block it fully read, per network).
- `ChainObservation`: one incoming transfer (txid, output or log index) the watcher saw to a watched address,
  with its block and confirmations; `credited_at` is set once it was handed to the payment service.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from gpurent.payments.assets import NETWORKS

from .intents import PaymentIntent

__all__ = ["ChainCursor", "ChainObservation", "DerivedAddress", "ExtendedPublicKey", "ObservationState"]


class ExtendedPublicKey(models.Model):
    """A watch-only account key (xpub/zpub/Ltub…) the shop derives fresh receiving addresses from.

    `next_index` is the first index not yet given out; it only grows. A retired key (`active=False`) keeps
    its addresses watched: payments to them are still seen.
    """

    network = models.CharField(max_length=20, choices=list(NETWORKS.items()))
    key = models.CharField(_("extended public key"), max_length=200)
    label = models.CharField(max_length=100, blank=True, help_text=_("For operators: the wallet it belongs to."))
    next_index = models.PositiveIntegerField(default=0)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("extended public key")
        verbose_name_plural = _("extended public keys")
        ordering = ["network", "-active", "id"]
        constraints = [
            models.UniqueConstraint(fields=["network", "key"], name="xpub_unique"),
            models.UniqueConstraint(fields=["network"], condition=Q(active=True), name="xpub_one_active_per_network"),
            models.CheckConstraint(condition=Q(network__in=list(NETWORKS)), name="xpub_network_known"),
        ]

    def __str__(self) -> str:
        return f"{self.network} {self.key[:12]}…{self.key[-6:]}"


class DerivedAddress(models.Model):
    """Index `index` of `key`'s external chain; unique per key and index, and per network and address."""

    key = models.ForeignKey(ExtendedPublicKey, on_delete=models.PROTECT, related_name="addresses")
    network = models.CharField(max_length=20)
    index = models.PositiveIntegerField()
    address = models.CharField(max_length=128)
    created_at = models.DateTimeField(auto_now_add=True)
    imported_at = models.DateTimeField(null=True, blank=True, help_text=_("When a watcher's node began watching it."))

    class Meta:
        verbose_name = _("derived address")
        verbose_name_plural = _("derived addresses")
        ordering = ["key", "index"]
        constraints = [
            models.UniqueConstraint(fields=["key", "index"], name="derived_address_index_unique"),
            models.UniqueConstraint(fields=["network", "address"], name="derived_address_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.network} #{self.index} {self.address}"


class ChainCursor(models.Model):
    """The last block a watcher of `network` read completely; the next scan starts after it.

    `tip_height` is the node's highest block as the last complete scan saw it, at `tip_seen_at`: `/metrics`
    reports the watcher's lag (`tip_height - height`) and how long ago a scan completed (decision 0413).

    The lease (`lease_owner` until `leased_until`) lets one watcher process scan a network at a time without
    holding a database lock across node calls: it is taken and released by conditional UPDATEs, and a crashed
    process's lease simply runs out.
    """

    network = models.CharField(max_length=20, unique=True)
    block_hash = models.CharField(max_length=80, blank=True)
    height = models.PositiveBigIntegerField(default=0)
    lease_owner = models.CharField(max_length=64, blank=True)
    leased_until = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    tip_height = models.PositiveBigIntegerField(null=True, blank=True)
    tip_seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("chain cursor")
        verbose_name_plural = _("chain cursors")

    def __str__(self) -> str:
        return f"{self.network} @ {self.height}"


class ObservationState(models.TextChoices):
    """- `seen`: in the mempool or in a block, not yet at the network's confirmation depth.
    - `dropped`: no longer on the chain before reaching depth: its block left the chain, a conflicting
      transaction was mined (a double spend), it was replaced or left the node's mempool; never credited
      unless the node reports it again (decision 0379).
    - `credited`: at depth, and recorded through the payment service (exactly once)."""

    SEEN = "seen", _("Seen on chain")
    DROPPED = "dropped", _("Left the chain")
    CREDITED = "credited", _("Confirmed")


class ChainObservation(models.Model):
    """One incoming transfer to a watched address, as the node last reported it (chain evidence).

    `amount_chain` is the exact amount in the chain's base unit (satoshi, wei, token base unit) as a decimal
    integer string (wei overflow a BIGINT); `amount_units` is it in the pair's quote units, rounded down: what
    is credited.
    """

    network = models.CharField(max_length=20)
    asset = models.CharField(max_length=10)
    txid = models.CharField(max_length=128)
    output_index = models.PositiveIntegerField(help_text=_("Output (vout) or log index within the transaction."))
    address = models.CharField(max_length=128)
    amount_chain = models.CharField(max_length=80)
    amount_units = models.PositiveBigIntegerField(_("amount (quote units)"))
    intent = models.ForeignKey(PaymentIntent, on_delete=models.PROTECT, related_name="chain_observations")
    block_hash = models.CharField(max_length=80, blank=True)
    block_height = models.PositiveBigIntegerField(null=True, blank=True)
    confirmations = models.PositiveIntegerField(default=0)
    required_confirmations = models.PositiveIntegerField()
    state = models.CharField(max_length=10, choices=ObservationState.choices, default=ObservationState.SEEN)
    first_seen_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    credited_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("chain observation")
        verbose_name_plural = _("chain observations")
        ordering = ["first_seen_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["network", "txid", "output_index"], name="chain_observation_unique"),
            models.CheckConstraint(condition=Q(amount_units__gt=0), name="chain_observation_amount_positive"),
            models.CheckConstraint(
                condition=~Q(state="credited") | Q(credited_at__isnull=False), name="chain_observation_credited_at"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.network} {self.txid}:{self.output_index} ({self.state})"
