"""The balance statement's text columns in the reader's language (QA walk: a Turkish customer's CSV said "2 × RTX
4090 24GB, 7 days" and "BTC on bitcoin", the network in lower case). The stored memos stay as written; the money
columns are unchanged."""

import csv
import io

import pytest
from django.urls import reverse
from django.utils import translation

from gpurent.core.money import Usd
from gpurent.ledger.models import LedgerTransfer
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.payments.assets import pair_get

pytestmark = pytest.mark.django_db

TXID = "ab" * 32


def rows(client, language):
    response = client.get(reverse("payments:balance_csv"), HTTP_ACCEPT_LANGUAGE=language)
    return list(
        csv.DictReader(
            io.StringIO(
                b"".join(response.streaming_content).decode() if response.streaming else response.content.decode()
            )
        )
    )


def test_a_turkish_statement_writes_its_memos_in_turkish_with_the_networks_name(client, customer):
    shop, account = system_account(EXTERNAL_CRYPTO), customer_account(customer)
    transfer_post(
        reference="deposit:D-1",
        amount=Usd(12_400),
        memo=f"BTC on bitcoin, bitcoin:{TXID}:0",
        debit=shop,
        credit=account,
    )
    transfer_post(
        reference="order:R-1",
        debit=customer_account(customer),
        credit=system_account(EXTERNAL_CRYPTO),
        amount=Usd(12_400),
        memo="2 × RTX 4090 24GB, 7 days",
    )
    transfer_post(reference="deposit:D-2", amount=Usd(100), memo="typed by an operator", debit=shop, credit=account)
    client.force_login(customer)
    english = rows(client, "en")
    turkish = rows(client, "tr")
    with translation.override("tr"):
        btc = pair_get("BTC", "bitcoin").display_label
    assert [row["memo"] for row in turkish] == [
        f"{btc}, işlem {TXID}",
        "2 × RTX 4090 24GB, 7 gün",
        "typed by an operator",  # not one of the shop's own memos: as stored
    ]
    assert "Bitcoin" in btc
    assert english[0]["memo"] == f"BTC on Bitcoin, transaction {TXID}"
    money = ["at", "reference", "direction", "amount_usd", "balance_after_usd"]
    assert [[row[k] for k in money] for row in turkish] == [[row[k] for k in money] for row in english]
    assert LedgerTransfer.objects.get(reference="order:R-1").memo == "2 × RTX 4090 24GB, 7 days"  # history unchanged
