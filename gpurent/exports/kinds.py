"""The downloads the worker prepares: each kind's label, file name, content type, row count and writer.

Every writer is one of the apps' own (the same one that answers a short history at once), so a prepared file
and a direct download of the same history are the same bytes (decision 0430).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from gpurent.accounts.models import User
from gpurent.accounts.owners import Owner
from gpurent.core.downloads import Pieces
from gpurent.core.errors import NotFound
from gpurent.journal.export import journal_pieces, journal_rows
from gpurent.orders.export import orders_csv, orders_csv_rows
from gpurent.orders.selectors import order_list_for
from gpurent.payments.balance.statement import balance_csv, balance_csv_rows

__all__ = ["KINDS", "ExportKind"]


@dataclass(frozen=True)
class ExportKind:
    """One kind of download. `rows` counts what `write` writes (lines; orders; journal entries and runs);
    `for_guests`: a guest session may ask for it (the journal), else only an account (orders, balance)."""

    label: Promise
    stem: str
    extension: str
    content_type: str
    for_guests: bool
    rows: Callable[[Owner], int]
    write: Callable[[Owner, datetime], Pieces]

    def filename(self, when: datetime) -> str:
        return f"{self.stem}-{when:%Y-%m-%d}.{self.extension}"


def _account(owner: Owner) -> User:
    """The owner's account: a kind that is not `for_guests` is never asked for by a guest (`export_request`)."""
    if owner.user is None:
        raise NotFound()
    return owner.user


KINDS: dict[str, ExportKind] = {
    "balance.csv": ExportKind(
        label=_("Balance statement (CSV)"),
        stem="balance",
        extension="csv",
        content_type="text/csv",
        for_guests=False,
        rows=lambda owner: balance_csv_rows(_account(owner)),
        write=lambda owner, now: balance_csv(_account(owner)),
    ),
    "rentals.csv": ExportKind(
        label=_("Orders summary (CSV)"),
        stem="rentals",
        extension="csv",
        content_type="text/csv",
        for_guests=False,
        rows=lambda owner: orders_csv_rows(order_list_for(_account(owner))),
        write=lambda owner, now: orders_csv(order_list_for(_account(owner))),
    ),
    "journal.json": ExportKind(
        label=_("Experiment journal (JSON)"),
        stem="journal",
        extension="json",
        content_type="application/json",
        for_guests=True,
        rows=journal_rows,
        write=lambda owner, now: journal_pieces(owner, "json", now=now),
    ),
    "journal.md": ExportKind(
        label=_("Experiment journal (Markdown)"),
        stem="journal",
        extension="md",
        content_type="text/markdown",
        for_guests=True,
        rows=journal_rows,
        write=lambda owner, now: journal_pieces(owner, "md", now=now),
    ),
}
