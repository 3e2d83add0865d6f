"""The customer's balance statement: every ledger line with its reference, and the withdrawals' transactions.

The orders summary (orders/export.py) lists each order's references; the balance's own movements (top-ups,
withdrawals and their returns) are here, as CSV and in the printable summary, so the customer keeps every
reference: `deposit:`, `order:`, `refund:`, `payout:`, `payout-returned:`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import CharField, Func
from django.http import HttpResponse

from gpurent.core.downloads import Pieces, count_up_to, download_whole
from gpurent.core.money import Usd
from gpurent.core.pagination import InvalidCursor, Page, keyset_page
from gpurent.ledger.models import LedgerEntry
from gpurent.ledger.selectors import ledger_lines_for
from gpurent.orders.export import csv_filename, csv_line, spreadsheet_safe

from ..models import Payout
from ..selectors import payout_list_for
from .memos import MemoTexts, payout_detail_text

__all__ = [
    "BALANCE_CSV_COLUMNS",
    "BALANCE_CSV_DIRECT_MAX",
    "balance_csv",
    "balance_csv_rows",
    "balance_csv_whole",
    "balance_statement_page",
]

BALANCE_CSV_COLUMNS = ["at", "reference", "direction", "amount_usd", "balance_after_usd", "memo", "payout_detail"]


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


# Ledger lines per query of the CSV: read as tuples, not models, so a page of this size is a few hundred KB.
BALANCE_CSV_PAGE = 2_000
# A statement of at most this many lines is answered at once (`core.downloads.download_whole`); a longer one is
# prepared by the background worker (gpurent.exports, decision 0430).
BALANCE_CSV_DIRECT_MAX = 10_000


def balance_csv_rows(owner: AbstractBaseUser, limit: int | None = None) -> int:
    """How many lines the statement has (counting no further than `limit + 1` when given)."""
    lines = ledger_lines_for(owner)
    return lines.count() if limit is None else count_up_to(lines, limit)


class _UtcText(Func):
    """A timestamp as text in UTC, `YYYY-MM-DD HH:MM:SS[.ffffff]` (`_iso` makes it ISO 8601): a long statement
    reads its times as text, several times cheaper than as `datetime`s (the driver parses each one in Python)."""

    output_field = CharField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        template = "to_char(%(expressions)s AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US')"
        return self.as_sql(compiler, connection, template=template, **extra)

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        # Django keeps SQLite's times as this text already (UTC, the fraction only when it is not zero); the cast
        # keeps the driver from parsing the column by its declared type.
        return self.as_sql(compiler, connection, template="CAST(%(expressions)s AS TEXT)", **extra)


def _iso(utc_text: str) -> str:
    """`_UtcText`'s text as `datetime.isoformat()` writes the same time: "2026-12-05T10:15:05.575197+00:00", no
    fraction when it is zero."""
    return f"{utc_text[:10]}T{utc_text[11:].removesuffix('.000000')}+00:00"


def _amount_cell(cents: int) -> str:
    """`spreadsheet_safe(Usd(cents).to_api())`, without making a `Usd` for each of a long statement's cells: a
    non-negative amount starts with a digit, which no spreadsheet runs."""
    return f"{cents // 100}.{cents % 100:02d}" if cents >= 0 else spreadsheet_safe(Usd(cents).to_api())


def balance_csv(owner: AbstractBaseUser) -> Pieces:
    """The balance statement as CSV, oldest first (times in ISO 8601 UTC; cells a spreadsheet would run are
    escaped), one piece per page of `BALANCE_CSV_PAGE` ledger lines with the number of lines written so far.
    Each page is one indexed keyset query read as tuples, plus one query for its withdrawals when it has any."""
    yield csv_line(BALANCE_CSV_COLUMNS), 0
    lines = (
        ledger_lines_for(owner)
        .annotate(at=_UtcText("created_at"))
        .values_list(
            "id", "at", "transfer__reference", "direction", "amount_cents", "balance_after_cents", "transfer__memo"
        )
    )
    written, after = 0, 0
    memos = MemoTexts()  # the text columns in the reader's language, made from the stored English (memos.py)
    while page := list(lines.filter(id__gt=after)[:BALANCE_CSV_PAGE]):
        refs = [row[2].partition(":")[2] for row in page if row[2].startswith("payout")]
        payouts = {payout.ref: payout for payout in payout_list_for(owner).filter(ref__in=refs)} if refs else {}
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        for _id, at, reference, direction, amount, balance_after, memo in page:
            memo = memos[memo]
            # The time and the direction are the shop's own words and never start a formula; the rest may.
            payout = payouts.get(reference.partition(":")[2]) if reference.startswith("payout") else None
            writer.writerow(
                (
                    _iso(at),
                    spreadsheet_safe(reference),
                    direction,
                    _amount_cell(amount),
                    _amount_cell(balance_after or 0),
                    spreadsheet_safe(memo),
                    spreadsheet_safe(payout_detail_text(payout)) if payout is not None else "",
                )
            )
        written, after = written + len(page), page[-1][0]
        yield buffer.getvalue(), written
        if len(page) < BALANCE_CSV_PAGE:
            return


def balance_csv_whole(owner: AbstractBaseUser) -> HttpResponse | None:
    """The statement as one response with its length and digest when it has at most `BALANCE_CSV_DIRECT_MAX`
    lines; None for a longer one, which the background worker prepares instead (decision 0430)."""
    if balance_csv_rows(owner, BALANCE_CSV_DIRECT_MAX) > BALANCE_CSV_DIRECT_MAX:
        return None
    return download_whole(balance_csv(owner), filename=csv_filename("balance"), content_type="text/csv")
