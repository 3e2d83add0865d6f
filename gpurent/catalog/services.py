"""Writes to the catalog: reserving and releasing stock.

Stock is changed only by a conditional UPDATE (`stock_lots >= n`), never by read-modify-write: it is correct
on PostgreSQL under any concurrency and on SQLite, and the `stock >= 0` check constraint backs it.
"""

from __future__ import annotations

from django.db.models import F

from .models import GpuModel

__all__ = ["stock_release", "stock_reserve"]


def stock_reserve(*, gpu_id: int, lots: int) -> bool:
    """Take `lots` lots of an on-sale GPU model out of stock; False (and nothing changed) if there are fewer.

    Call inside the transaction that creates what the lots are reserved for.
    """
    reserved = GpuModel.objects.filter(pk=gpu_id, on_sale=True, stock_lots__gte=lots).update(
        stock_lots=F("stock_lots") - lots
    )
    return reserved == 1


def stock_release(*, gpu_id: int, lots: int) -> None:
    """Put `lots` lots back in stock (a reservation lapsed, an order was cancelled, a term ended)."""
    GpuModel.objects.filter(pk=gpu_id).update(stock_lots=F("stock_lots") + lots)
