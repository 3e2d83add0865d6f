"""Journal entries (one experimental question each), their runs and the runs' measurements (DESIGN §7)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from gpurent.accounts.models import GuestSession
from gpurent.core.models import TimeStampedModel
from gpurent.orders.models import Order
from gpurent.sizing.models import SavedEstimate

from .enums import Checkpoint, Outcome, Phase, Reproducibility


class JournalEntry(TimeStampedModel):
    """One experimental question ("bf16 vs fp8 at batch 16") with what would answer it.

    Owned by exactly one of a user or a guest session (a check constraint); a guest's entries move to the
    account registered from that session (`services.entries_adopt`). The linked rental (an order of the
    owner; guests have none) and the linked saved estimate are optional. `public_id` is the only identifier
    in URLs and the API.
    """

    public_id = models.UUIDField(_("public id"), default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="journal_entries"
    )
    guest = models.ForeignKey(
        GuestSession, null=True, blank=True, on_delete=models.CASCADE, related_name="journal_entries"
    )
    question = models.CharField(_("question"), max_length=300)
    hypothesis = models.TextField(_("hypothesis"), blank=True)
    metrics = models.TextField(_("metrics and quality criteria"), blank=True)
    stop_criterion = models.TextField(_("stop criterion"), blank=True)
    order = models.ForeignKey(
        Order, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("rental")
    )
    estimate = models.ForeignKey(
        SavedEstimate,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="journal_entries",
        verbose_name=_("saved estimate"),
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("journal entry")
        verbose_name_plural = _("journal entries")
        # The whole-journal exports read an owner's entries oldest first, a keyset page at a time (decision 0290).
        indexes = [
            models.Index(fields=["user", "created_at", "id"], name="journal_entry_user_created"),
            models.Index(fields=["guest", "created_at", "id"], name="journal_entry_guest_created"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(user__isnull=False, guest__isnull=True) | Q(user__isnull=True, guest__isnull=False),
                name="journal_entry_exactly_one_owner",
            ),
            # Rentals belong to accounts: a guest's entry cannot point at one.
            models.CheckConstraint(
                condition=Q(order__isnull=True) | Q(user__isnull=False), name="journal_entry_rental_needs_account"
            ),
            models.CheckConstraint(condition=~Q(question=""), name="journal_entry_has_question"),
        ]

    def __str__(self) -> str:
        return self.question


class Run(TimeStampedModel):
    """One execution made to answer an entry's question: what was run, how, what was measured, what it means.

    Runs are records: they are created whole and not edited afterwards, so a comparison never shifts under
    a conclusion drawn from it. `number` counts the entry's runs from 1. The key/value fields (`versions`,
    `parameters`, `seeds`, `determinism`) are JSON objects of strings to strings, which is what makes two
    runs comparable key by key.
    """

    public_id = models.UUIDField(_("public id"), default=uuid.uuid4, unique=True, editable=False)
    entry = models.ForeignKey(JournalEntry, on_delete=models.CASCADE, related_name="runs")
    number = models.PositiveIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=200)
    code_version = models.CharField(_("code version"), max_length=200, blank=True)
    environment = models.CharField(_("environment"), max_length=500, blank=True)
    versions = models.JSONField(_("library versions"), default=dict, blank=True)
    parameters = models.JSONField(_("parameters"), default=dict, blank=True)
    seeds = models.JSONField(_("seeds"), default=dict, blank=True)
    determinism = models.JSONField(_("determinism settings"), default=dict, blank=True)
    reproducibility = models.CharField(
        _("reproducibility"), max_length=20, choices=Reproducibility.choices, default=Reproducibility.NOT_STATED
    )
    tolerance = models.CharField(_("tolerance"), max_length=200, blank=True)
    outcome = models.CharField(_("outcome"), max_length=20, choices=Outcome.choices, default=Outcome.COMPLETED)
    failure = models.TextField(_("failure"), blank=True)
    checkpoint = models.CharField(_("checkpoint"), max_length=20, choices=Checkpoint.choices, default=Checkpoint.NONE)
    conclusion = models.TextField(_("conclusion"), blank=True)

    class Meta:
        ordering = ["entry_id", "number"]
        verbose_name = _("run")
        verbose_name_plural = _("runs")
        constraints = [
            models.UniqueConstraint(fields=["entry", "number"], name="journal_run_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="journal_run_number_positive"),
            models.CheckConstraint(
                condition=Q(reproducibility__in=Reproducibility.values), name="journal_run_reproducibility_valid"
            ),
            models.CheckConstraint(
                condition=(Q(reproducibility=Reproducibility.TOLERANCE) & ~Q(tolerance=""))
                | (~Q(reproducibility=Reproducibility.TOLERANCE) & Q(tolerance="")),
                name="journal_run_tolerance_iff_tolerance",
            ),
            models.CheckConstraint(condition=Q(outcome__in=Outcome.values), name="journal_run_outcome_valid"),
            models.CheckConstraint(condition=Q(checkpoint__in=Checkpoint.values), name="journal_run_checkpoint_valid"),
            models.CheckConstraint(condition=~Q(name=""), name="journal_run_has_name"),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.name}"


class Measurement(models.Model):
    """What was observed in one phase of a run: peak memory per GPU, throughput, latency, a quality metric.

    An observation, never an estimate. `peak_bytes_per_gpu` lists the peak of each GPU in bytes (index = GPU
    index) as read by `peak_source` (`torch.cuda.max_memory_allocated`, `nvidia-smi`, `manual`...). At most
    one measurement per phase of a run. Not money: floats are fine for rates and times.
    """

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="measurements")
    phase = models.CharField(_("phase"), max_length=10, choices=Phase.choices)
    peak_bytes_per_gpu = models.JSONField(_("peak memory per GPU (bytes)"), default=list, blank=True)
    peak_source = models.CharField(_("peak read with"), max_length=100, blank=True)
    throughput = models.FloatField(_("throughput"), null=True, blank=True)
    throughput_unit = models.CharField(_("throughput unit"), max_length=40, blank=True)
    latency_ms = models.FloatField(_("latency (ms)"), null=True, blank=True)
    quality_metric = models.CharField(_("quality metric"), max_length=100, blank=True)
    quality_value = models.FloatField(_("quality value"), null=True, blank=True)

    class Meta:
        ordering = ["run_id", "phase"]
        verbose_name = _("measurement")
        verbose_name_plural = _("measurements")
        constraints = [
            models.UniqueConstraint(fields=["run", "phase"], name="journal_measurement_one_per_phase"),
            models.CheckConstraint(condition=Q(phase__in=Phase.values), name="journal_measurement_phase_valid"),
            models.CheckConstraint(
                condition=Q(throughput__isnull=True) | Q(throughput__gte=0), name="journal_measurement_throughput_ge_0"
            ),
            models.CheckConstraint(
                condition=Q(latency_ms__isnull=True) | Q(latency_ms__gte=0), name="journal_measurement_latency_ge_0"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.run_id} {self.phase}"

    @property
    def peak_bytes(self) -> int | None:
        """The highest per-GPU peak (the card that limits the configuration), or None when none was read."""
        return max(self.peak_bytes_per_gpu) if self.peak_bytes_per_gpu else None
