"""The customer's orders summary as CSV, safe to open in a spreadsheet."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from datetime import datetime

from .models import Order

__all__ = ["CSV_COLUMNS", "orders_csv", "spreadsheet_safe"]

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
    "payment_status",
    "provisioning_status",
    "reserved_until",
    "term_starts_at",
    "term_ends_at",
]

# A cell starting with one of these is run as a formula by spreadsheet programs (CSV injection).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: str) -> str:
    """Prefix a cell that a spreadsheet would evaluate with an apostrophe, so it stays text."""
    return f"'{value}" if value.startswith(_FORMULA_STARTS) else value


def _when(value: datetime | None) -> str:
    return value.isoformat() if value is not None else ""


def orders_csv(orders: Iterable[Order]) -> str:
    """One row per order with every reference a customer needs to keep, times in ISO 8601 UTC."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    for order in orders:
        row = [
            order.ref,
            _when(order.created_at),
            order.gpu.name,
            str(order.term_days),
            str(order.lots),
            str(order.cards),
            order.get_environment_display() + (f": {order.environment_note}" if order.environment_note else ""),
            order.lot_price.to_api(),
            order.total.to_api(),
            order.paid.to_api(),
            order.payment_status,
            order.provisioning_status,
            _when(order.reserved_until),
            _when(order.term_starts_at),
            _when(order.term_ends_at),
        ]
        writer.writerow([spreadsheet_safe(cell) for cell in row])
    return buffer.getvalue()
