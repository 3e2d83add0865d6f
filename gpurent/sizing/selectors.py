"""Reads of saved estimates, always scoped to their owner (another owner's estimate is a 404)."""

from __future__ import annotations

import uuid

from django.db.models import QuerySet

from gpurent.accounts.owners import Owner
from gpurent.core.errors import NotFound

from .models import SavedEstimate

__all__ = ["estimate_get_for", "estimate_list_for"]


def estimate_list_for(owner: Owner) -> QuerySet[SavedEstimate]:
    """The owner's saved estimates, newest first (none for an owner without a user or guest session)."""
    if owner.user is not None:
        return SavedEstimate.objects.filter(user=owner.user)
    if owner.guest is not None:
        return SavedEstimate.objects.filter(guest=owner.guest)
    return SavedEstimate.objects.none()


def estimate_get_for(owner: Owner, public_id: uuid.UUID | str) -> SavedEstimate:
    """One of the owner's estimates by its public id.

    Raises:
        NotFound: no such estimate, a malformed id, or an estimate of someone else.
    """
    try:
        key = public_id if isinstance(public_id, uuid.UUID) else uuid.UUID(str(public_id))
    except ValueError:
        raise NotFound() from None
    try:
        return estimate_list_for(owner).get(public_id=key)
    except SavedEstimate.DoesNotExist:
        raise NotFound() from None
