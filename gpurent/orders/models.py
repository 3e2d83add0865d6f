"""Rental orders and their status history (DESIGN §4)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from gpurent.catalog.enums import MAX_LOTS_PER_ORDER, MIN_LOTS_PER_ORDER, Term
from gpurent.catalog.models import GpuModel
from gpurent.core.models import TimeStampedModel
from gpurent.core.money import Usd
from gpurent.core.names import full_name

from .enums import Environment, PaymentStatus, ProvisioningStatus, Track
from .history_notes import note_text

# The machine state a paid order shows before its provisioning starts (`Order.machine_state`): not a stored status.
MACHINE_QUEUED = "queued"


class Order(TimeStampedModel):
    """A rental: `lots` lots of one GPU model for one fixed term, owned by one customer.

    The price is frozen at placing (`lot_price_cents`, `total_cents` = lot price × lots). Payment and
    provisioning are two separate tracks (see `enums.py`); every change of either writes an
    `OrderStatusChange`. Lots are reserved from stock at placing and returned when the order expires, is
    cancelled, fails or its term ends.
    """

    ref = models.CharField(_("reference"), max_length=16, unique=True)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="orders")
    gpu = models.ForeignKey(GpuModel, on_delete=models.PROTECT, related_name="orders")
    term_days = models.PositiveSmallIntegerField(_("term (days)"), choices=Term.choices)
    lots = models.PositiveSmallIntegerField(_("lots"))
    cards = models.PositiveSmallIntegerField(_("cards"))
    environment = models.CharField(_("environment"), max_length=10, choices=Environment.choices)
    environment_note = models.CharField(_("environment note"), max_length=200, blank=True)
    lot_price_cents = models.PositiveIntegerField(_("price of one lot (cents)"))
    total_cents = models.PositiveIntegerField(_("total (cents)"))
    contact_first_name = models.CharField(_("first name"), max_length=150)
    contact_last_name = models.CharField(_("last name"), max_length=150)
    contact_email = models.EmailField(_("contact email"))
    payment_status = models.CharField(
        _("payment"), max_length=20, choices=PaymentStatus.choices, default=PaymentStatus.AWAITING_PAYMENT
    )
    provisioning_status = models.CharField(
        _("provisioning"), max_length=20, choices=ProvisioningStatus.choices, default=ProvisioningStatus.NOT_STARTED
    )
    reserved_until = models.DateTimeField(_("lots reserved until"))
    paid_at = models.DateTimeField(_("paid at"), null=True, blank=True)
    term_starts_at = models.DateTimeField(_("term starts"), null=True, blank=True)
    term_ends_at = models.DateTimeField(_("term ends"), null=True, blank=True)
    # A rental without a GPU host (prepared at the desk or by the command provisioner): when an operator confirmed
    # the customer's access removed from the machine after the term (a host's agent revokes its own rentals).
    access_removed_at = models.DateTimeField(_("access removed"), null=True, blank=True)
    # An extension is an order of its own (same GPU, lots and environment, priced when it is placed) that, once
    # paid, moves the end of `extends`'s term; it reserves no stock: the rental already holds the lots.
    # Set while GPUs of a registered host are allocated to this rental (gpurent.hosts): its lots then return to
    # stock when the host's agent has revoked the access, not when the term ends or provisioning fails.
    lots_held_by_host = models.BooleanField(_("lots held on a GPU host"), default=False)
    extends = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="extensions",
        verbose_name=_("extends the rental"),
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("order")
        verbose_name_plural = _("orders")
        indexes = [
            models.Index(fields=["payment_status", "reserved_until"]),
            # Keyset pages of one customer's orders, newest first (gpurent.core.pagination).
            models.Index(fields=["owner", "id"], name="order_owner_id"),
            # The operator's dashboard (backoffice/dashboard, decision 0416): the references of each term, read
            # whole from the index to name a ledger transfer's term; terms that start or end in a period.
            models.Index(fields=["term_days", "ref"], name="order_term_ref"),
            models.Index(fields=["term_starts_at"], name="order_term_starts"),
            models.Index(fields=["term_ends_at"], name="order_term_ends"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(lots__gte=MIN_LOTS_PER_ORDER) & Q(lots__lte=MAX_LOTS_PER_ORDER), name="order_lots_1_to_10"
            ),
            models.CheckConstraint(condition=Q(term_days__in=Term.values), name="order_term_is_fixed"),
            models.CheckConstraint(condition=Q(lot_price_cents__gt=0), name="order_lot_price_positive"),
            models.CheckConstraint(condition=Q(total_cents=F("lot_price_cents") * F("lots")), name="order_total"),
            models.CheckConstraint(condition=Q(cards__gte=F("lots")), name="order_cards_at_least_lots"),
            models.CheckConstraint(
                condition=Q(payment_status__in=PaymentStatus.values), name="order_payment_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(provisioning_status__in=ProvisioningStatus.values), name="order_provisioning_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(provisioning_status=ProvisioningStatus.NOT_STARTED) | Q(payment_status=PaymentStatus.PAID),
                name="order_provisioning_needs_payment",
            ),
        ]

    def __str__(self) -> str:
        return self.ref

    @property
    def contact_name(self) -> str:
        """The contact's whole name in the reader's language's order (family name first in Vietnamese)."""
        return full_name(self.contact_first_name, self.contact_last_name)

    @property
    def lot_price(self) -> Usd:
        return Usd(self.lot_price_cents)

    @property
    def total(self) -> Usd:
        return Usd(self.total_cents)

    @property
    def term(self) -> Term:
        return Term(self.term_days)

    @property
    def is_extension(self) -> bool:
        return self.extends_id is not None

    @property
    def machine_state(self) -> str:
        """The machine track as the customer reads it: `queued` while a paid rental's provisioning has not started
        (nobody or nothing has begun preparing it yet, but it will be), else the provisioning status. Derived from
        the two tracks, never stored: the API and the exports keep `provisioning_status`. An extension has no
        machine of its own (paid, it moves its rental's term end), so it is never queued."""
        if (
            not self.is_extension
            and self.payment_status == PaymentStatus.PAID
            and self.provisioning_status == ProvisioningStatus.NOT_STARTED
        ):
            return MACHINE_QUEUED
        return self.provisioning_status

    @property
    def machine_state_label(self) -> str:
        """`machine_state` in the reader's language, for its badge; for an extension, what its payment did."""
        if self.is_extension:
            return str(_("Added to the term")) if self.payment_status == PaymentStatus.PAID else "—"
        if self.machine_state == MACHINE_QUEUED:
            return str(_("Queued"))
        return str(self.get_provisioning_status_display())

    @property
    def ended_unpaid(self) -> bool:
        """Expired or cancelled before it was paid: no machine will ever be prepared for it."""
        return self.payment_status in (PaymentStatus.EXPIRED, PaymentStatus.CANCELLED)


class OrderStatusChange(models.Model):
    """One move of one status track of an order: from where, to where, when, by whom and why.

    Append-only: the history of an order is the list of its changes, oldest first.
    """

    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="status_changes")
    track = models.CharField(max_length=20, choices=Track.choices)
    from_status = models.CharField(max_length=20, blank=True)
    to_status = models.CharField(max_length=20)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("status change")
        verbose_name_plural = _("status changes")

    def __str__(self) -> str:
        """As a person reads it, e.g. the title of its row on the order's back-office page: "Payment: — → Awaiting
        payment"."""
        return f"{self.get_track_display()}: {self.from_status_label or '—'} → {self.to_status_label}"

    def _label(self, status: str) -> str:
        vocabulary = PaymentStatus if self.track == Track.PAYMENT else ProvisioningStatus
        return str(vocabulary(status).label) if status else ""

    @property
    def from_status_label(self) -> str:
        """The former status as a person reads it ("Not started"); empty for a track's first status."""
        return self._label(self.from_status)

    @property
    def to_status_label(self) -> str:
        """The new status as a person reads it ("Awaiting payment")."""
        return self._label(self.to_status)

    @property
    def reason_text(self) -> str:
        """The note in the reader's language (the shop's own notes translated; an operator's as typed)."""
        return note_text(self.reason)


class OrderAccess(models.Model):
    """How the customer reaches the rented machine. Shown only to the order's owner, only during the term.

    Either the customer's SSH public key was installed (`public_key`), or a one-time password was set: it is
    kept only until the customer reveals it once (`one_time_secret` is then emptied and `revealed_at` set).
    Never logged.
    """

    order = models.OneToOneField(Order, on_delete=models.CASCADE, related_name="access")
    host = models.CharField(_("SSH host"), max_length=255)
    port = models.PositiveIntegerField(_("SSH port"), default=22)
    username = models.CharField(_("SSH user"), max_length=64)
    public_key = models.TextField(_("installed public key"), blank=True)
    # A second way in where the environment has one (PyTorch: Jupyter), its token in the URL. Like the SSH
    # access it is shown only to the owner, only during the term, and never written to logs or the audit.
    jupyter_url = models.URLField(_("Jupyter URL (with its token)"), max_length=500, blank=True)
    one_time_secret = models.CharField(_("one-time password"), max_length=200, blank=True)
    revealed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("order access")
        verbose_name_plural = _("order access records")
        constraints = [
            models.CheckConstraint(condition=Q(port__gte=1) & Q(port__lte=65535), name="access_port_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.username}@{self.host}:{self.port}"

    @property
    def ssh_command(self) -> str:
        """What the customer types: `ssh -p PORT USER@HOST`."""
        return f"ssh -p {self.port} {self.username}@{self.host}"


class OrderSshKey(models.Model):
    """A public key the customer chose at checkout to be installed on the order's machine.

    A copy, not a link: removing the key from the account later does not change what this order was given.
    """

    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="ssh_keys")
    name = models.CharField(_("name"), max_length=100)
    public_key = models.TextField(_("public key"))
    fingerprint = models.CharField(_("SHA256 fingerprint"), max_length=60)

    class Meta:
        verbose_name = _("order SSH key")
        verbose_name_plural = _("order SSH keys")
        ordering = ["name", "id"]
        constraints = [models.UniqueConstraint(fields=["order", "fingerprint"], name="order_ssh_key_once")]

    def __str__(self) -> str:
        return f"{self.order_id} {self.name} ({self.fingerprint})"


class MachineRequestKind(models.TextChoices):
    """What the customer asks the operators to do with the machine. Neither pauses nor extends the term."""

    STOP = "stop", _("Stop the machine")
    RESTART = "restart", _("Restart the machine")


class MachineRequest(models.Model):
    """A customer's request about the running machine, recorded for operators."""

    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="machine_requests")
    kind = models.CharField(max_length=10, choices=MachineRequestKind.choices)
    note = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    handled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("machine request")
        verbose_name_plural = _("machine requests")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.order_id} {self.kind}"


class ProvisioningRun(models.Model):
    """One run of an automatic provisioner (e.g. an operator's script): what ran and what it printed."""

    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="provisioning_runs")
    command = models.CharField(max_length=500)
    exit_code = models.IntegerField(null=True, blank=True)
    output = models.TextField(blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("provisioning run")
        verbose_name_plural = _("provisioning runs")
        ordering = ["-started_at"]

    def __str__(self) -> str:
        return f"{self.order_id} → {self.exit_code}"
