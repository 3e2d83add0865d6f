"""Private support requests and their threads (DESIGN §8).

Every text field holds text that went through `gpurent.core.redaction` first: the secrets a customer
pasted are replaced by `[REDACTED: …]` markers before the row is written, and `redactions` lists what was
removed and where (field, line, kind), never the secret itself.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from gpurent.catalog.models import GpuModel
from gpurent.core.models import TimeStampedModel
from gpurent.orders.models import Order

from .enums import Author, RequestStatus


class SupportRequest(TimeStampedModel):
    """A customer's request for help, visible to its owner and to operators only.

    `order` is one of the owner's own orders (checked by the service: a constraint cannot span the two
    tables). `status` follows the thread: see `RequestStatus`.
    """

    ref = models.CharField(_("reference"), max_length=16, unique=True)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="support_requests")
    order = models.ForeignKey(Order, null=True, blank=True, on_delete=models.SET_NULL, related_name="support_requests")
    gpu = models.ForeignKey(GpuModel, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # Room for markers: a redacted subject can be longer than the 200 characters a customer may type.
    subject = models.CharField(_("subject"), max_length=400)
    library_versions = models.TextField(_("library versions"), blank=True)
    reproduction_steps = models.TextField(_("steps to reproduce"), blank=True)
    expected = models.TextField(_("expected result"), blank=True)
    observed = models.TextField(_("observed result"), blank=True)
    logs = models.TextField(_("messages and logs"), blank=True)
    status = models.CharField(_("status"), max_length=10, choices=RequestStatus.choices, default=RequestStatus.OPEN)
    redactions = models.JSONField(_("removed secrets"), default=list, blank=True)
    last_message_at = models.DateTimeField(_("last activity"), db_index=True)

    class Meta:
        ordering = ["-last_message_at", "-id"]
        verbose_name = _("support request")
        verbose_name_plural = _("support requests")
        indexes = [models.Index(fields=["owner", "created_at"]), models.Index(fields=["status", "last_message_at"])]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=RequestStatus.values), name="support_request_status_valid"),
            models.CheckConstraint(condition=~Q(subject=""), name="support_request_has_subject"),
        ]

    def __str__(self) -> str:
        return f"{self.ref}: {self.subject}"


class SupportMessage(models.Model):
    """One message of a request's thread, by the customer or an operator. Append-only."""

    request = models.ForeignKey(SupportRequest, on_delete=models.CASCADE, related_name="messages")
    author_role = models.CharField(_("from"), max_length=10, choices=Author.choices)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    body = models.TextField(_("message"))
    redactions = models.JSONField(_("removed secrets"), default=list, blank=True)
    created_at = models.DateTimeField(_("sent at"), auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("support message")
        verbose_name_plural = _("support messages")
        indexes = [
            models.Index(fields=["author", "created_at"]),
            # A thread's pages, newest first (`selectors.THREAD_ORDER`): one index range per page, whatever the
            # thread's length (decision 0352).
            models.Index(fields=["request", "id"], name="support_message_request_id"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(author_role__in=Author.values), name="support_message_author_valid"),
            models.CheckConstraint(condition=~Q(body=""), name="support_message_has_body"),
        ]

    def __str__(self) -> str:
        return f"{self.request_id} {self.author_role} {self.created_at:%Y-%m-%d %H:%M}"
