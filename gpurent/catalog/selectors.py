"""Reads of the catalog that other apps and the views use."""

from __future__ import annotations

import hashlib
from functools import cache

from django.db import connection
from django.db.models import QuerySet

from gpurent.core.errors import NotFound

from .models import GpuModel

__all__ = ["catalog_version", "gpu_get", "gpu_list"]


def gpu_list(*, include_off_sale: bool = False) -> QuerySet[GpuModel]:
    """GPU models in catalog order; by default only those on sale."""
    queryset = GpuModel.objects.all()
    return queryset if include_off_sale else queryset.filter(on_sale=True)


def gpu_get(slug: str, *, include_off_sale: bool = False) -> GpuModel:
    """One GPU model by slug, every field read.

    Every order reads it: the SELECT is built once per process (`_gpu_by_slug_sql`) and the row becomes a model
    through `raw()`, which applies the fields' converters as a queryset does; compiling the same query through
    the ORM cost twice the CPU (0.74 ms against 0.41; decision 0300).

    Raises:
        NotFound: no such model (or it is off sale and `include_off_sale` is false).
    """
    found = list(GpuModel.objects.raw(_gpu_by_slug_sql(connection.vendor, include_off_sale=include_off_sale), [slug]))
    if not found:  # the slug is unique: one row or none
        raise NotFound()
    return found[0]


@cache
def _gpu_by_slug_sql(vendor: str, *, include_off_sale: bool) -> str:
    """`gpu_list(include_off_sale=…).get(slug=…)` as SQL, from the model's names (all its columns)."""
    quote, meta = connection.ops.quote_name, GpuModel._meta
    columns = ", ".join(quote(field.column) for field in meta.concrete_fields)
    # S608: the names come from the model, the slug is a parameter.
    sql = f"SELECT {columns} FROM {quote(meta.db_table)} WHERE {quote('slug')} = %s"  # noqa: S608
    return sql if include_off_sale else f"{sql} AND {quote('on_sale')}"


def catalog_version() -> str:
    """A digest of (id, `updated_at`, stock) of every GPU on sale, read in one small SQL statement.

    It changes when anything a public catalog page shows changes: every edit through `save()` moves
    `updated_at` (the back office included), orders and releases move `stock_lots` by UPDATE, and a GPU put on
    or taken off sale enters or leaves the set (decision 0200). Raw SQL on purpose: it is the whole cost of
    serving a cached page, so no ORM compilation and no model instances. If stock ever moves to a table of its
    own, this statement must read it there (`catalog/tests/test_page_cache.py` fails otherwise).
    """
    table = connection.ops.quote_name(GpuModel._meta.db_table)
    row = "CAST(id AS TEXT) || ':' || CAST(updated_at AS TEXT) || ':' || CAST(stock_lots AS TEXT)"
    if connection.vendor == "postgresql":
        # Digested in the database: 32 characters travel, not ~45 per GPU.
        sql = f"SELECT count(*), md5(string_agg({row}, ',' ORDER BY id)) FROM {table} WHERE on_sale"  # noqa: S608
    else:
        inner = f"SELECT {row} AS r FROM {table} WHERE on_sale ORDER BY id"  # noqa: S608
        sql = f"SELECT count(*), group_concat(r, ',') FROM ({inner})"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute(sql)
        count, rows = cursor.fetchone()
    return f"{count}-{hashlib.sha256((rows or '').encode()).hexdigest()[:24]}"
