"""The customer's balance statement: every ledger line with its reference, and the withdrawals' transactions.

The orders summary (orders/export.py) lists each order's references; the balance's own movements (top-ups,
withdrawals and their returns) are here, as CSV and in the printable summary, so the customer keeps every
reference: `deposit:`, `order:`, `refund:`, `payout:`, `payout-returned:`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser

from gpurent.core.money import Usd
from gpurent.core.pagination import InvalidCursor, Page, keyset_chunks, keyset_page
from gpurent.ledger.models import LedgerEntry
from gpurent.ledger.selectors import ledger_lines_for
from gpurent.orders.export import csv_line

from .assets import format_units, pair_get
from .models import Payout
from .selectors import payout_list_for

__all__ = ["BALANCE_CSV_COLUMNS", "balance_csv", "balance_statement_page"]

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


def _statement_lines(entries: Iterable[LedgerEntry], payouts: dict[str, Payout]) -> list[dict[str, Any]]:
    """`entries` as statement lines, each with its withdrawal (from `payouts`, by ref) when it is one."""
    lines = []
    for entry in entries:
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


def _payouts_of(owner: AbstractBaseUser, entries: list[LedgerEntry]) -> dict[str, Payout]:
    """The withdrawals `entries` are about, by ref (one query; none when no entry is about one)."""
    refs = [ref for kind, _, ref in (e.transfer.reference.partition(":") for e in entries) if kind.startswith("payout")]
    return {payout.ref: payout for payout in payout_list_for(owner).filter(ref__in=refs)} if refs else {}


def balance_statement_page(
    owner: AbstractBaseUser, cursor: str | None = None
) -> tuple[list[dict[str, Any]], Page[LedgerEntry]]:
    """One keyset page of the statement, newest first, after `cursor` (not valid: the first page)."""
    try:
        page = keyset_page(ledger_lines_for(owner), cursor)
    except InvalidCursor:
        page = keyset_page(ledger_lines_for(owner))
    return _statement_lines(page.items, _payouts_of(owner, page.items)), page


def balance_csv(owner: AbstractBaseUser) -> Iterator[str]:
    """The balance statement as CSV lines, oldest first (times in ISO 8601 UTC; cells a spreadsheet would run are
    escaped), made one keyset page of ledger lines at a time, each with its page's withdrawals (one query)."""
    yield csv_line(BALANCE_CSV_COLUMNS)
    for chunk in keyset_chunks(ledger_lines_for(owner), key=("id",)):
        for line in _statement_lines(chunk, _payouts_of(owner, chunk)):
            yield csv_line(
                [
                    line["at"].isoformat(),
                    line["reference"],
                    line["direction"],
                    line["amount"].to_api(),
                    line["balance_after"].to_api(),
                    line["memo"],
                    _payout_detail(line["payout"]),
                ]
            )
