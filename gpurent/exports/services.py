"""Asking for a prepared download, and deleting the expired ones (the sweep)."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from gpurent.accounts.owners import Owner
from gpurent.core.errors import NotFound

from .enums import ExportState
from .kinds import KINDS
from .models import Export
from .selectors import exports_of
from .writing import KEEP, export_write_task

__all__ = ["STALLED_AFTER", "export_request", "exports_purge"]

# An export queued or being written whose progress has not moved for this long was left by a lost task: asking
# again replaces it (a dead worker's task is queued again within about a minute, decision 0384, and a writer
# records its progress at least every few seconds).
STALLED_AFTER = timedelta(minutes=10)


def export_request(*, owner: Owner, kind: str, language: str, now: datetime | None = None) -> Export:
    """The owner's file of `kind`, prepared by the background worker: the one already being prepared when there
    is one, else a new one, queued after commit, that replaces the owner's earlier file of that kind (an owner
    keeps at most one file of each kind).

    Raises:
        NotFound: no such kind, or one the owner may not have (a guest asking for the balance or the orders).
    """
    spec = KINDS.get(kind)
    if spec is None or owner.is_empty or (owner.user is None and not spec.for_guests):
        raise NotFound()
    now = now or timezone.now()
    with transaction.atomic():
        mine = exports_of(owner).filter(kind=kind)
        current = mine.select_for_update().first()
        unfinished = current is not None and current.state in (ExportState.QUEUED, ExportState.WRITING)
        if current is not None and unfinished and current.progress_at >= now - STALLED_AFTER:
            return current
        mine.delete()  # its parts go with it (ON DELETE CASCADE in Django's collector, one DELETE per table)
        try:
            with transaction.atomic():
                export = Export.objects.create(
                    user=owner.user, guest=owner.guest, kind=kind, filename=spec.filename(now), language=language
                )
        except IntegrityError:
            # The same owner asked for the same kind at the same moment: the other request's export is this one.
            return exports_of(owner).get(kind=kind)
        transaction.on_commit(partial(export_write_task.enqueue, export.pk))
    return export


def exports_purge(*, now: datetime) -> int:
    """Delete the files `KEEP` after they were ready, and exports left unfinished as long (failed, or never
    written); returns how many exports were deleted."""
    expired = Export.objects.filter(Q(expires_at__lt=now) | Q(expires_at__isnull=True, progress_at__lt=now - KEEP))
    return expired.delete()[1].get(Export._meta.label, 0)
