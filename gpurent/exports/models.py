"""A download prepared by the background worker (`Export`) and the stored pieces of its file (`ExportPart`)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from gpurent.accounts.models import GuestSession

from .enums import ExportState


class Export(models.Model):
    """One whole-history download of one kind (`kinds.KINDS`: the balance statement, the orders, the journal),
    written by the worker so that no request timeout can cut it (decision 0430).

    Owned by exactly one of a user or a guest session (the journal's downloads are a guest's too). An owner has
    at most one export of each kind: asking again replaces a finished one and returns one still being written.
    The file lives in the database, as `ExportPart` rows of `PART_BYTES` each (the last one shorter), so every
    web process can serve it whatever machine wrote it; it is deleted with its row `KEEP` after it is ready.
    `writer` is the id of the task run writing it: a run that finds another's id stops writing.
    """

    public_id = models.UUIDField(_("public id"), default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    guest = models.ForeignKey(GuestSession, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("kind"), max_length=40)
    filename = models.CharField(_("file name"), max_length=100)
    language = models.CharField(_("language"), max_length=10)
    state = models.CharField(_("state"), max_length=10, choices=ExportState.choices, default=ExportState.QUEUED)
    rows_total = models.PositiveBigIntegerField(_("rows to write"), default=0)
    rows_done = models.PositiveBigIntegerField(_("rows written"), default=0)
    size_bytes = models.PositiveBigIntegerField(_("size in bytes"), default=0)
    sha256 = models.CharField(_("SHA-256"), max_length=64, blank=True, default="")
    writer = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(_("asked for at"), auto_now_add=True)
    # Moved by every piece written, so an export nobody writes any more can be told from a slow one.
    progress_at = models.DateTimeField(_("last progress at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    expires_at = models.DateTimeField(_("deleted after"), null=True, blank=True, db_index=True)

    class Meta:
        verbose_name = _("prepared download")
        verbose_name_plural = _("prepared downloads")
        constraints = [
            models.CheckConstraint(
                condition=Q(user__isnull=False, guest__isnull=True) | Q(user__isnull=True, guest__isnull=False),
                name="export_exactly_one_owner",
            ),
            models.UniqueConstraint(fields=["user", "kind"], name="export_one_per_user_and_kind"),
            models.UniqueConstraint(fields=["guest", "kind"], name="export_one_per_guest_and_kind"),
            models.CheckConstraint(
                condition=~Q(state=ExportState.READY) | (Q(finished_at__isnull=False) & ~Q(sha256="")),
                name="export_ready_has_digest",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.public_id} ({self.state})"


class ExportPart(models.Model):
    """`PART_BYTES` bytes of an export's file (the last part may be shorter), in order of `number` from 0."""

    export = models.ForeignKey(Export, on_delete=models.CASCADE, related_name="parts")
    number = models.PositiveIntegerField(_("number"))
    data = models.BinaryField(_("data"))

    class Meta:
        verbose_name = _("part of a prepared download")
        verbose_name_plural = _("parts of prepared downloads")
        constraints = [models.UniqueConstraint(fields=["export", "number"], name="export_part_unique_number")]

    def __str__(self) -> str:
        return f"{self.export_id}#{self.number}"
