"""Reads of the catalog that other apps and the views use."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from django.db import connection
from django.db.models import QuerySet

from gpurent.core.errors import NotFound

from .models import GpuModel

__all__ = ["CatalogState", "catalog_state", "catalog_version", "gpu_get", "gpu_list", "gpus_like"]


def gpu_list(*, include_off_sale: bool = False) -> QuerySet[GpuModel]:
    """GPU models in catalog order; by default only those on sale."""
    queryset = GpuModel.objects.all()
    return queryset if include_off_sale else queryset.filter(on_sale=True)


def gpus_like(gpu: GpuModel, candidates: Iterable[GpuModel], *, limit: int = 4) -> list[GpuModel]:
    """The `limit` GPUs of `candidates` most like `gpu`, whatever their stock: the same software stack first, then
    the nearest memory per card (as a ratio), then the nearest 7-day price. A sold-out GPU's page offers those of
    them in stock (`{% if_instead %}`)."""
    others = [other for other in candidates if other.pk != gpu.pk]

    def distance(other: GpuModel) -> tuple[bool, float, int]:
        memory = abs(math.log(other.memory_mib_per_card / gpu.memory_mib_per_card))
        return (other.stack != gpu.stack, round(memory, 2), abs(other.price_7d_cents - gpu.price_7d_cents))

    return sorted(others, key=distance)[:limit]


def gpu_get(slug: str, *, include_off_sale: bool = False) -> GpuModel:
    """One GPU model by slug, every field read.

    Raises:
        NotFound: no such model (or it is off sale and `include_off_sale` is false).
    """
    try:
        return gpu_list(include_off_sale=include_off_sale).get(slug=slug)
    except GpuModel.DoesNotExist:
        raise NotFound() from None


def catalog_version() -> str:
    """A digest of (id, `updated_at`, stock) of every GPU on sale, read in one small SQL statement.

    It changes when anything shown with stock changes (the catalog API's answer, an estimate's fit table, a
    guide's figures): every edit through `save()` moves `updated_at` (the back office included), orders and
    releases move `stock_lots` by UPDATE, and a GPU put on or taken off sale enters or leaves the set (decision
    0200). Pages that show stock through holes use `catalog_state` instead (decision 0425). Raw SQL on purpose:
    it is the whole cost of serving a cached answer, so no ORM compilation and no model instances. If stock ever
    moves to a table of its own, this statement must read it there (`catalog/tests/test_page_cache.py` fails
    otherwise).
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


@dataclass(frozen=True, slots=True)
class CatalogState:
    """What a cached catalog page checks on every request: `version`, which moves with every change a page shows
    but stock (decision 0425), and the stock in lots of the GPUs it asked about (by id; one gone from the table
    is missing)."""

    version: str
    stock: dict[int, int]


def catalog_state(gpu_ids: Sequence[int] = ()) -> CatalogState:
    """The catalog's version and the live stock of `gpu_ids`, in one statement (so one snapshot).

    The version is the row that triggers on the GPU table move (migration `0003_catalog_version`): a new random
    value whenever a GPU model is added, removed, edited through `save()` (its `updated_at` moves) or put on or
    off sale; never when only its stock moves. Reading it costs one row by its key whatever the catalog's size;
    the stock part reads the asked rows by primary key. Raw SQL, built once per process and count: it is the
    whole cost of serving a cached page.
    """
    with connection.cursor() as cursor:
        cursor.execute(_state_sql(connection.vendor, len(gpu_ids)), list(gpu_ids))
        rows = cursor.fetchall()
    version = next((str(row[0]) for row in rows if row[1] is None), "none")
    return CatalogState(version, {int(row[1]): int(row[2]) for row in rows if row[1] is not None})


@cache
def _state_sql(vendor: str, count: int) -> str:
    quote, table = connection.ops.quote_name, connection.ops.quote_name(GpuModel._meta.db_table)
    sql = "SELECT version, NULL, NULL FROM catalog_version"
    if count:
        placeholders = ", ".join(["%s"] * count)
        # S608: the names come from the model, the ids are parameters.
        sql += f" UNION ALL SELECT NULL, {quote('id')}, {quote('stock_lots')} FROM {table} WHERE id IN ({placeholders})"  # noqa: S608
    return sql
