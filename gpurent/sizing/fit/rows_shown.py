"""Which rows of the catalog table an estimate shows (decision 0350): all of them up to `FIT_ROWS_SHOWN`, else
the `FIT_ROWS_SHOWN` that fit best, in catalog order.

Rank: the rows that fit first, cheapest 7-day price first; then the tight ones, cheapest first; then those that do
not fit, closest to fitting first (largest headroom, i.e. smallest shortfall); ties in catalog order. The table's
answer (`Sizing.cheapest`: the cheapest row that fits, else the cheapest tight one) is the first by rank, so it
is always shown. The same rule picks from a `GpuFit` list (the estimator) and from a stored API list (a saved
estimate's `catalog_fit`, the API's answer).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any, TypeVar

from .table import FITS, NO_FIT, TIGHT, GpuFit

__all__ = ["FIT_ROWS_SHOWN", "fit_rank", "rows_shown", "stored_rank", "stored_rows_shown"]

FIT_ROWS_SHOWN = 12

T = TypeVar("T")
Rank = tuple[int, Decimal | int]
_ORDER = {FITS: 0, TIGHT: 1, NO_FIT: 2}


def fit_rank(row: GpuFit) -> Rank:
    """A `GpuFit`'s rank (smaller is better): status, then 7-day price in cents, or shortfall when nothing fits."""
    if row.week_price is None:
        return (_ORDER[NO_FIT], -row.headroom_bytes)
    return (_ORDER[row.status], row.week_price.cents)


def stored_rank(row: Mapping[str, Any]) -> Rank:
    """The rank of a row in the API's shape (`GpuFit.to_api`), as stored with a saved estimate. Rows stored before
    `status` existed say only `fits`; a priced row that does not say it fits was tight."""
    prices = row.get("prices_usd")
    if not prices:
        return (_ORDER[NO_FIT], -int(row["headroom_bytes"]))
    status = row.get("status") or (FITS if row.get("fits") else TIGHT)
    return (_ORDER.get(status, _ORDER[TIGHT]), Decimal(str(prices["7"])))


def rows_shown(rows: Sequence[T], rank: Callable[[T], Rank], shown: int = FIT_ROWS_SHOWN) -> list[T]:
    """The `shown` rows of `rows` that rank best (ties in their order), in their order; all of them when they are
    no more than `shown`."""
    if len(rows) <= shown:
        return list(rows)
    best = sorted(range(len(rows)), key=lambda index: (rank(rows[index]), index))[:shown]
    return [rows[index] for index in sorted(best)]


def stored_rows_shown(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """`rows_shown` of a stored API list."""
    return rows_shown(rows, stored_rank)
