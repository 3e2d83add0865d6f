"""Quote requests sent from a guide (DESIGN §8): stored for operators, visible to their owner."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from gpurent.catalog.models import GpuModel
from gpurent.core.models import TimeStampedModel

from .enums import Endpoint, GuideWorkload, QuoteStatus, Scope, SupportLevel

# The most characters of sample data a request may carry: enough for a few examples, not a data set.
SAMPLE_DATA_MAX_CHARS = 20_000


class QuoteRequest(TimeStampedModel):
    """A customer's request for a quote for a workload: model, GPU, endpoint, support, scope, data, load.

    Owned by exactly one of a user or a guest session (a check constraint). A guest's requests are shown to
    the account later registered from that session through `GuestSession.adopted_by` (see `selectors.py`),
    so nothing is moved or copied. `public_id` is the only identifier in URLs and the API. The customer
    writes it once; operators change only `status` and `operator_note`, each change audited.

    `client_ip_hash` is an HMAC of the sender's address, kept only to rate-limit requests per address
    without storing the address itself.
    """

    public_id = models.UUIDField(_("public id"), default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="quote_requests",
        verbose_name=_("user"),
    )
    guest = models.ForeignKey(
        "accounts.GuestSession",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="quote_requests",
        verbose_name=_("guest session"),
    )
    gpu = models.ForeignKey(GpuModel, on_delete=models.PROTECT, related_name="quote_requests", verbose_name=_("GPU"))
    guide_workload = models.CharField(_("guide workload"), max_length=30, choices=GuideWorkload.choices)
    guide_scope = models.CharField(_("guide scope"), max_length=30, choices=Scope.choices)
    model_name = models.CharField(_("model"), max_length=200)
    endpoint = models.CharField(_("endpoint"), max_length=20, choices=Endpoint.choices)
    support_level = models.CharField(_("support level"), max_length=20, choices=SupportLevel.choices)
    delivery_scope = models.CharField(_("delivery scope"), max_length=30, choices=Scope.choices)
    sample_data = models.TextField(_("sample data"), blank=True)
    expected_load = models.CharField(_("expected request load"), max_length=500)
    contact_email = models.EmailField(_("contact email"))
    status = models.CharField(_("status"), max_length=20, choices=QuoteStatus.choices, default=QuoteStatus.NEW)
    operator_note = models.TextField(_("operator note"), blank=True)
    client_ip_hash = models.CharField(_("sender address (hashed)"), max_length=64, blank=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("quote request")
        verbose_name_plural = _("quote requests")
        constraints = [
            models.CheckConstraint(
                condition=Q(user__isnull=False, guest__isnull=True) | Q(user__isnull=True, guest__isnull=False),
                name="quote_exactly_one_owner",
            ),
            models.CheckConstraint(condition=Q(status__in=QuoteStatus.values), name="quote_status_valid"),
            models.CheckConstraint(condition=Q(endpoint__in=Endpoint.values), name="quote_endpoint_valid"),
            models.CheckConstraint(condition=Q(support_level__in=SupportLevel.values), name="quote_support_valid"),
            models.CheckConstraint(
                condition=Q(delivery_scope__in=Scope.values) & Q(guide_scope__in=Scope.values),
                name="quote_scopes_valid",
            ),
            models.CheckConstraint(condition=Q(guide_workload__in=GuideWorkload.values), name="quote_workload_valid"),
            models.CheckConstraint(condition=~Q(model_name=""), name="quote_model_not_empty"),
            models.CheckConstraint(condition=~Q(contact_email=""), name="quote_email_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.model_name} on {self.gpu_id} ({self.created_at:%Y-%m-%d})"

    @property
    def short_id(self) -> str:
        """The first block of the public id, for people: "Q-3F2A9C1D"."""
        return f"Q-{str(self.public_id)[:8].upper()}"
