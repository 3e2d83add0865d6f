"""Writes to the catalog: reserving and releasing stock.

Stock is changed only by a conditional UPDATE (`stock_lots >= n`), never by read-modify-write: it is correct
on PostgreSQL under any concurrency and on SQLite, and the `stock >= 0` check constraint backs it.
"""

from __future__ import annotations

from functools import cache

from django.db import connection
from django.db.models import F

from .models import GpuModel

__all__ = ["stock_release", "stock_reserve"]


@cache
def _reserve_sql(vendor: str) -> str:
    """The reserving UPDATE, built once per process (and database vendor) from the model's names."""
    quote = connection.ops.quote_name
    table, stock = quote(GpuModel._meta.db_table), quote("stock_lots")
    # S608: the names come from the model, every value is a parameter.
    return (
        f"UPDATE {table} SET {stock} = {stock} - %s "  # noqa: S608
        f"WHERE {quote('id')} = %s AND {quote('on_sale')} AND {stock} >= %s"
    )


def stock_reserve(*, gpu_id: int, lots: int) -> bool:
    """Take `lots` lots of an on-sale GPU model out of stock; False (and nothing changed) if there are fewer.

    Call inside the transaction that creates what the lots are reserved for. The same conditional UPDATE the
    ORM writes for `filter(pk=…, on_sale=True, stock_lots__gte=lots).update(stock_lots=F(…) - lots)`, as raw
    SQL: every order runs it, and compiling it through the ORM cost four times what sending it does
    (0.6 ms of CPU against 0.14 ms; decision 0300).
    """
    with connection.cursor() as cursor:
        cursor.execute(_reserve_sql(connection.vendor), [lots, gpu_id, lots])
        return cursor.rowcount == 1


def stock_release(*, gpu_id: int, lots: int) -> None:
    """Put `lots` lots back in stock (a reservation lapsed, an order was cancelled, a term ended)."""
    GpuModel.objects.filter(pk=gpu_id).update(stock_lots=F("stock_lots") + lots)
