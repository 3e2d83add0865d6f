"""The customer's balance statement: every ledger line with its reference, and the withdrawals' transactions.

The orders summary (orders/export.py) lists each order's references; the balance's own movements (top-ups,
withdrawals and their returns) are here, as CSV and in the printable summary, so the customer keeps every
reference: `deposit:`, `order:`, `refund:`, `payout:`, `payout-returned:`.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser

from gpurent.core.money import Usd
from gpurent.ledger.selectors import ledger_lines_for
from gpurent.orders.export import spreadsheet_safe

from .assets import format_units, pair_get
from .models import Payout
from .selectors import payout_list_for

__all__ = ["BALANCE_CSV_COLUMNS", "balance_csv", "balance_statement"]

BALANCE_CSV_COLUMNS = ["at", "reference", "direction", "amount_usd", "balance_after_usd", "memo", "payout_detail"]


def _payout_detail(payout: Payout | None) -> str:
    """For a withdrawal's lines: its status, address and, once sent, what was sent and the transaction id."""
    if payout is None:
        return ""
    pair = pair_get(payout.asset, payout.network)
    detail = f"{payout.status} to {payout.address} ({pair.label})"
    if payout.txid:
        detail += f"; sent {format_units(payout.sent_units or 0, pair)} {pair.asset}, transaction {payout.txid}"
    return detail


def balance_statement(owner: AbstractBaseUser) -> list[dict[str, Any]]:
    """Every line of the customer's balance, oldest first, each with its withdrawal when it is one."""
    payouts = {payout.ref: payout for payout in payout_list_for(owner)}
    lines = []
    for entry in ledger_lines_for(owner):
        kind, _, ref = entry.transfer.reference.partition(":")
        lines.append(
            {
                "at": entry.created_at,
                "reference": entry.transfer.reference,
                "direction": entry.direction,
                "amount": Usd(entry.amount_cents),
                "balance_after": Usd(entry.balance_after_cents or 0),
                "memo": entry.transfer.memo,
                "payout": payouts.get(ref) if kind.startswith("payout") else None,
            }
        )
    return lines


def balance_csv(owner: AbstractBaseUser) -> str:
    """The balance statement as CSV (times in ISO 8601 UTC; cells a spreadsheet would run are escaped)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(BALANCE_CSV_COLUMNS)
    for line in balance_statement(owner):
        row = [
            line["at"].isoformat(),
            line["reference"],
            line["direction"],
            line["amount"].to_api(),
            line["balance_after"].to_api(),
            line["memo"],
            _payout_detail(line["payout"]),
        ]
        writer.writerow([spreadsheet_safe(cell) for cell in row])
    return buffer.getvalue()
