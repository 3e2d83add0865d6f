"""The balance statement's CSV is read as tuples, with its times as text (decision 0430: a statement of 10^6
lines is written by the worker in seconds, not minutes), and still writes exactly what the row-by-row writer wrote:
ISO 8601 times with or without a fraction, withdrawals with their address and transaction, a rejected one's return,
and every cell a spreadsheet would run escaped."""

from __future__ import annotations

from datetime import UTC, datetime
from unittest import mock

import pytest

from gpurent.core.money import Usd
from gpurent.ledger.models import LedgerEntry
from gpurent.ledger.selectors import ledger_lines_for
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.export import csv_line
from gpurent.payments.balance.memos import memo_text, payout_detail_text
from gpurent.payments.balance.statement import (
    BALANCE_CSV_COLUMNS,
    _payouts_of,
    _statement_lines,
    balance_csv,
)
from gpurent.payments.payouts import payout_mark_sent, payout_reject, payout_request

pytestmark = pytest.mark.django_db

TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"


def row_by_row(owner) -> str:
    """The statement as the writer before decision 0430 made it: a model per line, a CSV writer per line, every
    cell escaped."""
    entries = list(ledger_lines_for(owner))
    lines = [csv_line(BALANCE_CSV_COLUMNS)]
    for line in _statement_lines(entries, _payouts_of(owner, entries)):
        cells = [line["at"].isoformat(), line["reference"], line["direction"], line["amount"].to_api()]
        detail = payout_detail_text(line["payout"]) if line["payout"] else ""
        cells += [line["balance_after"].to_api(), memo_text(line["memo"]), detail]
        lines.append(csv_line(cells))
    return "".join(lines)


def test_the_fast_statement_is_the_row_by_row_statement(django_user_model, settings, monkeypatch):
    settings.PAYOUTS_MIN_CENTS, settings.PAYOUTS_FEE_CENTS = 2_000, 100
    monkeypatch.setattr("gpurent.payments.balance.statement.BALANCE_CSV_PAGE", 2)  # several pages, one of them short
    customer = django_user_model.objects.create_user("s@example.com", "passphrase 12345", first_name="S")
    whole_second = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    with mock.patch("django.utils.timezone.now", return_value=whole_second):
        transfer_post(
            reference="deposit:D-1",
            debit=system_account(EXTERNAL_CRYPTO),
            credit=customer_account(customer),
            amount=Usd(10_000),
            memo='=HYPERLINK("http://evil")',
        )
    with mock.patch("django.utils.timezone.now", return_value=whole_second.replace(microsecond=120)):
        sent = payout_request(owner=customer, asset="USDT", network="tron", address=TRON, amount=Usd(3_000))
    payout_mark_sent(payout_id=sent.pk, txid="tx-sent", sent_units=29_000_000, actor=None)
    rejected = payout_request(owner=customer, asset="USDT", network="tron", address=TRON, amount=Usd(2_500))
    payout_reject(payout_id=rejected.pk, reason="address on a list", actor=None)
    times = [entry.created_at for entry in ledger_lines_for(customer)]
    assert times[0].microsecond == 0
    assert times[1].microsecond == 120
    assert LedgerEntry.objects.filter(account=customer_account(customer)).count() == len(times) == 4
    text = "".join(piece for piece, _ in balance_csv(customer))
    assert text == row_by_row(customer)
    assert "2026-01-02T03:04:05+00:00" in text
    assert "2026-01-02T03:04:05.000120+00:00" in text
    assert "'=HYPERLINK" in text
    assert "tx-sent" in text
    assert [rows for _, rows in balance_csv(customer)] == [0, 2, 4]
