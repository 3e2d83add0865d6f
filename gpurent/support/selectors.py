"""Reads of support requests, always scoped to their owner: another customer's request does not exist (404)."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import QuerySet

from gpurent.core.errors import NotFound
from gpurent.core.pagination import Page, keyset_page

from .models import SupportMessage, SupportRequest

__all__ = [
    "LIST_ORDER",
    "THREAD_ORDER",
    "support_message_get_for",
    "support_messages",
    "support_request_get_for",
    "support_request_list_for",
    "thread_page",
]

# The order of a customer's list of requests, as a keyset (gpurent.core.pagination): most recent activity first.
LIST_ORDER = ("-last_message_at", "-id")
# The order in which a thread is cut into pages: newest first, so its first page is the latest messages and the
# "Earlier messages" cursor leads back in time. Served by the (request, id) index (decision 0352).
THREAD_ORDER = ("-id",)


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
    """The request's thread, oldest first (whole: read it a page at a time with `thread_page`)."""
    return request.messages.select_related("author")


def thread_page(request: SupportRequest, cursor: str | None, *, size: int) -> Page[SupportMessage]:
    """One page of the request's thread: the `size` newest messages before `cursor` (None: the latest ones),
    listed oldest first as a conversation reads; `next` is the cursor of the earlier messages.

    Raises:
        InvalidCursor: the cursor was not made for a thread.
    """
    return chronological(keyset_page(support_messages(request), cursor, size=size, key=THREAD_ORDER))


def chronological(page: Page[SupportMessage]) -> Page[SupportMessage]:
    """`page` (read newest first) with its messages oldest first, the same cursors."""
    return Page(items=page.items[::-1], next=page.next, cursor=page.cursor)


def support_message_get_for(request: SupportRequest, message_id: int) -> SupportMessage:
    """One message of the request's thread (the request is already the owner's).

    Raises:
        NotFound: no such message in this thread.
    """
    try:
        return request.messages.get(pk=message_id)
    except SupportMessage.DoesNotExist:
        raise NotFound() from None
