"""The customer's orders summary as CSV, safe to open in a spreadsheet."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from datetime import datetime

from django.db.models import QuerySet
from django.http import HttpResponse
from django.utils import timezone

from gpurent.core.downloads import Pieces, count_up_to, download_whole
from gpurent.core.pagination import keyset_chunks

from .models import Order
from .money import order_money
from .payments_port import payments

__all__ = [
    "CSV_COLUMNS",
    "ORDERS_CSV_DIRECT_MAX",
    "csv_filename",
    "order_ledger_references",
    "orders_csv",
    "orders_csv_rows",
    "orders_csv_whole",
    "spreadsheet_safe",
]


def order_ledger_references(orders: Sequence[Order]) -> dict[int, list[str]]:
    """Every ledger reference that moved money for each of `orders` (`["order:R-…", "deposit:D-…", "refund:R-…"]`),
    from payments (`payments_port`), in a fixed number of queries."""
    found: dict[int, list[str]] = {order.pk: [] for order in orders}
    if not orders:
        return found
    for order_id, references in payments().order_ledger_references(orders).items():
        found.setdefault(order_id, []).extend(references)
    return found


CSV_COLUMNS = [
    "reference",
    "placed_at",
    "gpu",
    "term_days",
    "lots",
    "cards",
    "environment",
    "lot_price_usd",
    "total_usd",
    "paid_usd",
    "received_usd",
    "refunded_usd",
    "payment_status",
    "provisioning_status",
    "reserved_until",
    "term_starts_at",
    "term_ends_at",
    "ledger_references",
]

# A cell starting with one of these is run as a formula by spreadsheet programs (CSV injection).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: str) -> str:
    """Prefix a cell that a spreadsheet would evaluate with an apostrophe, so it stays text."""
    return f"'{value}" if value.startswith(_FORMULA_STARTS) else value


def _when(value: datetime | None) -> str:
    return value.isoformat() if value is not None else ""


def csv_filename(name: str) -> str:
    """A CSV download's file name: `name-YYYY-MM-DD.csv`, dated today (UTC)."""
    return f"{name}-{timezone.now():%Y-%m-%d}.csv"


# A history of at most this many orders is answered at once (`core.downloads.download_whole`); a longer one is
# prepared by the background worker (gpurent.exports, decision 0430).
ORDERS_CSV_DIRECT_MAX = 5_000


def orders_csv_rows(orders: QuerySet[Order], limit: int | None = None) -> int:
    """How many lines `orders_csv(orders)` writes (counting no further than `limit + 1` when given)."""
    return orders.count() if limit is None else count_up_to(orders, limit)


def csv_line(cells: Iterable[str]) -> str:
    """One CSV line of `cells`, each escaped for spreadsheets (`spreadsheet_safe`)."""
    buffer = io.StringIO()
    csv.writer(buffer).writerow([spreadsheet_safe(cell) for cell in cells])
    return buffer.getvalue()


def orders_csv(orders: QuerySet[Order]) -> Pieces:
    """One row per order, newest first, with every reference a customer needs to keep (the order's and every
    ledger reference that moved its money, space-separated), times in ISO 8601 UTC. Made one keyset page of
    orders at a time (a fixed number of queries per page), one piece per page with the orders written so far,
    so the whole history never sits in memory."""
    yield csv_line(CSV_COLUMNS), 0
    written = 0
    for chunk in keyset_chunks(orders):
        references = order_ledger_references(chunk)
        money = order_money(chunk, references)
        lines = [
            csv_line(
                [
                    order.ref,
                    _when(order.created_at),
                    order.gpu.name,
                    str(order.term_days),
                    str(order.lots),
                    str(order.cards),
                    order.get_environment_display() + (f": {order.environment_note}" if order.environment_note else ""),
                    order.lot_price.to_api(),
                    order.total.to_api(),
                    money[order.pk].paid.to_api(),
                    money[order.pk].received.to_api(),
                    money[order.pk].refunded.to_api(),
                    order.payment_status,
                    order.provisioning_status,
                    _when(order.reserved_until),
                    _when(order.term_starts_at),
                    _when(order.term_ends_at),
                    " ".join(references.get(order.pk, [])),
                ]
            )
            for order in chunk
        ]
        written += len(chunk)
        yield "".join(lines), written


def orders_csv_whole(orders: QuerySet[Order]) -> HttpResponse | None:
    """The orders CSV as one response with its length and digest when there are at most `ORDERS_CSV_DIRECT_MAX`
    orders; None for more, which the background worker prepares instead (decision 0430)."""
    if orders_csv_rows(orders, ORDERS_CSV_DIRECT_MAX) > ORDERS_CSV_DIRECT_MAX:
        return None
    return download_whole(orders_csv(orders), filename=csv_filename("rentals"), content_type="text/csv")
