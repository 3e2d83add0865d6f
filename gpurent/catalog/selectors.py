"""Reads of the catalog that other apps and the views use."""

from __future__ import annotations

from django.db.models import QuerySet

from gpurent.core.errors import NotFound

from .models import GpuModel

__all__ = ["gpu_get", "gpu_list"]


def gpu_list(*, include_off_sale: bool = False) -> QuerySet[GpuModel]:
    """GPU models in catalog order; by default only those on sale."""
    queryset = GpuModel.objects.all()
    return queryset if include_off_sale else queryset.filter(on_sale=True)


def gpu_get(slug: str, *, include_off_sale: bool = False) -> GpuModel:
    """One GPU model by slug.

    Raises:
        NotFound: no such model (or it is off sale and `include_off_sale` is false).
    """
    try:
        return gpu_list(include_off_sale=include_off_sale).get(slug=slug)
    except GpuModel.DoesNotExist:
        raise NotFound() from None
