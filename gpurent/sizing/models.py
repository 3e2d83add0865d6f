"""Saved estimates: an assumption computed from inputs, kept with its date and engine version (DESIGN §6)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from gpurent.accounts.models import GuestSession
from gpurent.core.models import TimeStampedModel

from .titles import TITLE_MAX_LENGTH, generated_title


class SavedEstimate(TimeStampedModel):
    """One estimate a customer chose to keep.

    It is owned by exactly one of a user or a guest session (a check constraint); a guest's estimates move
    to the account registered from that session (`services.estimates_adopt`). `inputs` is the engine's
    complete input (the model spelled out, so it re-runs without the preset library), `result` the
    engine's output and `catalog_fit` the catalog table as it was at saving time (prices included).
    `public_id` is the only identifier shown in URLs and the API: integer keys would let anyone count them.

    A measured peak can be attached later; `measured_peak_bytes` and `measured_at` are set together.

    `title` holds only a title the customer typed; empty, the shop's own title is built from the inputs when it is
    shown, in the reader's language (`title_text`).
    """

    public_id = models.UUIDField(_("public id"), default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="saved_estimates",
        verbose_name=_("user"),
    )
    guest = models.ForeignKey(
        GuestSession,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="saved_estimates",
        verbose_name=_("guest session"),
    )
    title = models.CharField(_("title"), max_length=TITLE_MAX_LENGTH, blank=True)
    inputs = models.JSONField(_("inputs"))
    form_data = models.JSONField(_("estimator form fields"), default=dict, blank=True)
    result = models.JSONField(_("result"))
    catalog_fit = models.JSONField(_("catalog fit at saving time"), default=list, blank=True)
    engine_version = models.CharField(_("engine version"), max_length=100)
    peak_bytes = models.BigIntegerField(_("estimated peak per card (bytes)"))
    usable_pct = models.PositiveSmallIntegerField(_("usable share of a card (%)"))
    measured_peak_bytes = models.BigIntegerField(_("measured peak per card (bytes)"), null=True, blank=True)
    measured_at = models.DateTimeField(_("measured at"), null=True, blank=True)
    measurement_source = models.CharField(_("measured with"), max_length=100, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("saved estimate")
        verbose_name_plural = _("saved estimates")
        constraints = [
            models.CheckConstraint(
                condition=Q(user__isnull=False, guest__isnull=True) | Q(user__isnull=True, guest__isnull=False),
                name="estimate_exactly_one_owner",
            ),
            models.CheckConstraint(condition=Q(peak_bytes__gt=0), name="estimate_peak_positive"),
            models.CheckConstraint(
                condition=Q(measured_peak_bytes__isnull=True, measured_at__isnull=True)
                | Q(measured_peak_bytes__gt=0, measured_at__isnull=False),
                name="estimate_measurement_complete",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.title_text} ({self.created_at:%Y-%m-%d})"

    @property
    def title_text(self) -> str:
        """The title in the reader's language: the customer's as typed, else built from the inputs now."""
        return self.title or generated_title(self.inputs)

    @property
    def error_pct(self) -> float | None:
        """(estimate − measured) / measured × 100, or None without a measurement. Not money: a float is fine."""
        if not self.measured_peak_bytes:
            return None
        return (self.peak_bytes - self.measured_peak_bytes) * 100 / self.measured_peak_bytes
