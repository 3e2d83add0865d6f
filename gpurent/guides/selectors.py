"""Reads: the guides (one per GPU on sale × workload × scope) and quote requests, scoped to their owner."""

from __future__ import annotations

import uuid

from django.db.models import Q, QuerySet

from gpurent.accounts.owners import Owner
from gpurent.catalog.models import GpuModel
from gpurent.catalog.selectors import gpu_get, gpu_list
from gpurent.core.errors import NotFound

from .enums import GuideWorkload, Scope
from .guide import Guide
from .models import QuoteRequest

__all__ = ["guide_get", "guide_list", "quote_request_get_for", "quote_request_list_for"]


def guide_list(
    *, gpus: list[GpuModel] | None = None, workload: str = "", scope: str = "", gpu: str = ""
) -> list[Guide]:
    """Every guide, optionally filtered: GPU (catalog order), then workload, then scope. Unknown values match none."""
    models = list(gpu_list()) if gpus is None else gpus
    return [
        Guide(model, each_workload, each_scope)
        for model in models
        if not gpu or model.slug == gpu
        for each_workload in GuideWorkload
        if not workload or each_workload.value == workload
        for each_scope in Scope
        if not scope or each_scope.value == scope
    ]


def guide_get(gpu_slug: str, workload: str, scope: str) -> Guide:
    """One guide.

    Raises:
        NotFound: the GPU is not on sale, or the workload or scope does not exist.
    """
    if workload not in GuideWorkload.values or scope not in Scope.values:
        raise NotFound()
    return Guide(gpu_get(gpu_slug), GuideWorkload(workload), Scope(scope))


def quote_request_list_for(owner: Owner) -> QuerySet[QuoteRequest]:
    """The owner's quote requests, newest first.

    A user also sees the requests of the guest session their account adopted (registered from that session):
    adoption is recorded once on the guest session by `accounts`, so nothing needs to be moved here.
    """
    queryset = QuoteRequest.objects.select_related("gpu")
    if owner.user is not None:
        return queryset.filter(Q(user=owner.user) | Q(guest__adopted_by=owner.user))
    if owner.guest is not None:
        return queryset.filter(guest=owner.guest)
    return queryset.none()


def quote_request_get_for(owner: Owner, public_id: uuid.UUID | str) -> QuoteRequest:
    """One of the owner's quote requests by public id.

    Raises:
        NotFound: no such request, a malformed id, or someone else's request (indistinguishable on purpose).
    """
    try:
        key = public_id if isinstance(public_id, uuid.UUID) else uuid.UUID(str(public_id))
    except ValueError:
        raise NotFound() from None
    try:
        return quote_request_list_for(owner).get(public_id=key)
    except QuoteRequest.DoesNotExist:
        raise NotFound() from None
