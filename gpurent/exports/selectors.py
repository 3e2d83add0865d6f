"""Reads of prepared downloads, always scoped to the owner: another owner's export does not exist (404)."""

from __future__ import annotations

import uuid

from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from gpurent.accounts.owners import Owner
from gpurent.core.errors import NotFound

from .models import Export

__all__ = ["export_get_for", "exports_of"]


def exports_of(owner: Owner) -> QuerySet[Export]:
    """The owner's exports (none for a visitor who has nothing saved)."""
    if owner.user is not None:
        return Export.objects.filter(user=owner.user)
    if owner.guest is not None:
        return Export.objects.filter(guest=owner.guest)
    return Export.objects.none()


def export_get_for(owner: Owner, public_id: uuid.UUID | str) -> Export:
    """One of the owner's exports.

    Raises:
        NotFound: no such export, a malformed id, or someone else's (the three are indistinguishable).
    """
    try:
        return exports_of(owner).get(public_id=public_id)
    except (Export.DoesNotExist, ValidationError):
        raise NotFound() from None
