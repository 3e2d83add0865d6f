"""GPU hosts, the GPUs each rental holds on one, and every call the shop made to a host's agent (decision 0360)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from gpurent.catalog.models import GpuModel
from gpurent.core.models import TimeStampedModel
from gpurent.orders.models import Order

from .enums import HostHealth, RentalState


class GpuHost(TimeStampedModel):
    """An operator's Linux machine whose GPUs the shop rents out through the host agent (tools/host-agent).

    The shop reaches it as `user@address:port` with its one SSH identity (`HOSTS_SSH_KEY_FILE`), trusting only
    the host key pinned at registration. `gpu_indices` are the cards offered for rent (all of one model,
    `gpu`); `inventory` is what the agent last reported (cards, vCPUs, RAM, disk).
    """

    name = models.SlugField(_("name"), max_length=63, unique=True)
    address = models.CharField(_("address"), max_length=255, help_text=_("Host name or IP the shop connects to."))
    port = models.PositiveIntegerField(_("SSH port"), default=22)
    user = models.CharField(_("SSH user"), max_length=32, default="root")
    gpu = models.ForeignKey(GpuModel, on_delete=models.PROTECT, related_name="hosts", verbose_name=_("GPU model"))
    gpu_indices = models.JSONField(_("GPU indices offered"), default=list)
    host_key = models.TextField(_("pinned SSH host key"))
    host_key_fingerprint = models.CharField(_("host key fingerprint"), max_length=60)
    inventory = models.JSONField(_("inventory"), default=dict, blank=True)
    health = models.CharField(_("health"), max_length=12, choices=HostHealth.choices, default=HostHealth.HEALTHY)
    drained = models.BooleanField(_("drained"), default=False, help_text=_("Takes no new rentals."))
    checked_at = models.DateTimeField(_("last checked"), null=True, blank=True)
    last_error = models.CharField(_("last error"), max_length=500, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("GPU host")
        verbose_name_plural = _("GPU hosts")
        constraints = [
            models.CheckConstraint(condition=Q(port__gte=1) & Q(port__lte=65535), name="host_port_valid"),
            models.CheckConstraint(condition=Q(health__in=HostHealth.values), name="host_health_valid"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def takes_rentals(self) -> bool:
        return self.health == HostHealth.HEALTHY and not self.drained


class HostRental(TimeStampedModel):
    """The account of one rental (a paid order that is not an extension) on its host: `username` with the
    customer's keys and exactly the GPUs of its `GpuAllocation` rows, until it is revoked and later wiped.

    `attempts` and `next_attempt_at` pace the retries of the operation the state calls for (create while
    `pending`, revoke while `revoking`, a moved expiry while `active`); `last_result` is the agent's last
    answer, which never holds a secret.
    """

    order = models.OneToOneField(Order, on_delete=models.PROTECT, related_name="host_rental")
    host = models.ForeignKey(GpuHost, on_delete=models.PROTECT, null=True, blank=True, related_name="rentals")
    username = models.CharField(_("account"), max_length=32, unique=True)
    gpu_indices = models.JSONField(_("GPU indices"), default=list)
    state = models.CharField(_("state"), max_length=10, choices=RentalState.choices, default=RentalState.PENDING)
    attempts = models.PositiveSmallIntegerField(_("failed attempts"), default=0)
    next_attempt_at = models.DateTimeField(_("next attempt"), null=True, blank=True, db_index=True)
    host_expires_on = models.DateField(_("account expiry on the host"), null=True, blank=True)
    last_result = models.JSONField(_("agent's last answer"), default=dict, blank=True)
    last_error = models.CharField(_("last error"), max_length=500, blank=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    wiped_at = models.DateTimeField(_("wiped at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("host rental")
        verbose_name_plural = _("host rentals")
        indexes = [models.Index(fields=["state", "next_attempt_at"], name="host_rental_due")]
        constraints = [
            models.CheckConstraint(condition=Q(state__in=RentalState.values), name="host_rental_state_valid"),
        ]

    def __str__(self) -> str:
        return self.username

    def host_or_error(self) -> GpuHost:
        """The rental's host, once its GPUs are allocated."""
        if self.host is None:
            raise ValueError(f"rental {self.username} has no host yet")
        return self.host


class GpuAllocation(models.Model):
    """One GPU of one host held by one rental. The unique (host, index) pair is what makes two rentals never
    share a card, whatever the code above it does; the row is deleted once the rental's access is revoked."""

    host = models.ForeignKey(GpuHost, on_delete=models.PROTECT, related_name="allocations")
    index = models.PositiveSmallIntegerField(_("GPU index"))
    rental = models.ForeignKey(HostRental, on_delete=models.CASCADE, related_name="allocations")

    class Meta:
        ordering = ["host", "index"]
        verbose_name = _("GPU allocation")
        verbose_name_plural = _("GPU allocations")
        constraints = [models.UniqueConstraint(fields=["host", "index"], name="one_rental_per_gpu")]

    def __str__(self) -> str:
        return f"{self.host_id}:{self.index} → {self.rental_id}"


class HostOperation(models.Model):
    """One call to a host's agent: what was asked (never a key or a secret), whether it worked, and its answer."""

    host = models.ForeignKey(GpuHost, on_delete=models.CASCADE, related_name="operations")
    rental = models.ForeignKey(HostRental, on_delete=models.SET_NULL, null=True, blank=True, related_name="operations")
    operation = models.CharField(_("operation"), max_length=20)
    arguments = models.JSONField(_("arguments"), default=list, blank=True)
    ok = models.BooleanField(_("succeeded"), default=False)
    exit_code = models.IntegerField(_("exit code"), null=True, blank=True)
    result = models.JSONField(_("answer"), default=dict, blank=True)
    error = models.CharField(_("error"), max_length=500, blank=True)
    started_at = models.DateTimeField(_("started"), db_index=True)
    duration_ms = models.PositiveIntegerField(_("duration (ms)"), default=0)

    class Meta:
        ordering = ["-started_at", "-id"]
        verbose_name = _("host operation")
        verbose_name_plural = _("host operations")

    def __str__(self) -> str:
        return f"{self.host_id} {self.operation} {'ok' if self.ok else 'failed'}"
