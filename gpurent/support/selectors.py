"""Reads of support requests, always scoped to their owner: another customer's request does not exist (404)."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import QuerySet

from gpurent.core.errors import NotFound

from .models import SupportMessage, SupportRequest

__all__ = ["LIST_ORDER", "support_messages", "support_request_get_for", "support_request_list_for"]

# The order of a customer's list of requests, as a keyset (gpurent.core.pagination): most recent activity first.
LIST_ORDER = ("-last_message_at", "-id")


def support_request_list_for(owner: AbstractBaseUser) -> QuerySet[SupportRequest]:
    """The owner's requests, most recent activity first, with their order and GPU model."""
    return SupportRequest.objects.filter(owner_id=owner.pk).select_related("order", "gpu")


def support_request_get_for(owner: AbstractBaseUser, ref: str) -> SupportRequest:
    """One of the owner's requests by reference.

    Raises:
        NotFound: no such request, or it belongs to someone else (the two are indistinguishable on purpose).
    """
    try:
        return support_request_list_for(owner).get(ref=ref.strip().upper())
    except SupportRequest.DoesNotExist:
        raise NotFound() from None


def support_messages(request: SupportRequest) -> QuerySet[SupportMessage]:
    """The request's thread, oldest first."""
    return request.messages.select_related("author")
