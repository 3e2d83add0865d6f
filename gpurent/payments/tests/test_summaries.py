"""Every ledger reference in the summaries (issue 10, problem 11 and withdrawals): the orders CSV and printable
summary, the order in the API, and the balance statement (CSV, API, printable) with `payout:` references."""

import csv
import io

import pytest
from django.urls import reverse

from gpurent.accounts.services import api_token_create
from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.provisioning import provision_fail, provision_start
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import PaymentSource
from gpurent.payments.payouts import payout_mark_sent, payout_request
from gpurent.payments.received.receive import payment_receive

pytestmark = pytest.mark.django_db

TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"


@pytest.fixture
def history(customer, order, settings):
    """The order paid in crypto ($410), then failed and refunded; a top-up; one withdrawal sent."""
    settings.PAYOUTS_MIN_CENTS, settings.PAYOUTS_FEE_CENTS = 2_000, 100
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    payment = payment_receive(
        intent_id=intent.pk,
        txid="tx-order",
        output_index=0,
        amount_units=intent.amount_units,
        source=PaymentSource.OPERATOR,
    )
    order.refresh_from_db()
    provision_fail(order=provision_start(order=order, actor=None), actor=None, reason="no machine")
    transfer_post(
        reference="deposit:D-TOPUP",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(5_000),
    )
    payout = payout_request(owner=customer, asset="USDT", network="tron", address=TRON, amount=Usd(3_000))
    payout_mark_sent(payout_id=payout.pk, txid="tx-payout", sent_units=29_000_000, actor=None)
    assert payment.deposit is not None
    return {"order": order, "deposit": payment.deposit.ref, "payout": payout.ref}


def test_the_orders_csv_and_printable_summary_list_every_reference_of_the_order(client, customer, history):
    client.force_login(customer)
    order = history["order"]
    rows = list(csv.DictReader(io.StringIO(client.get(reverse("orders:rentals_csv")).content.decode())))
    expected = f"deposit:{history['deposit']} order:{order.ref} refund:{order.ref}"
    assert rows[0]["ledger_references"] == expected
    printable = client.get(reverse("orders:rentals_printable")).content.decode()
    # Each reference as a word and the ref to quote; the machine reference, as in the CSV, in data-reference.
    for word, reference in [("Payment received", f"deposit:{history['deposit']}"), ("Order", f"order:{order.ref}")]:
        ref = reference.partition(":")[2]
        assert f'<span class="ledger-ref" data-reference="{reference}">{word} <code>{ref}</code></span>' in printable
    assert f'data-reference="refund:{order.ref}">Refund <code>{order.ref}</code>' in printable
    # The balance movements: the top-up and the withdrawal, with its transaction id.
    assert 'data-reference="deposit:D-TOPUP">Payment received <code>D-TOPUP</code>' in printable
    assert f'data-reference="payout:{history["payout"]}">Withdrawal <code>{history["payout"]}</code>' in printable
    assert "tx-payout" in printable


def test_the_api_order_and_summaries_carry_the_references(client, customer, history, django_user_model):
    auth = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=customer, name='t')[1]}"}
    order = history["order"]
    expected = [f"deposit:{history['deposit']}", f"order:{order.ref}", f"refund:{order.ref}"]
    assert client.get(f"/api/v1/orders/{order.ref}", **auth).json()["references"] == expected
    assert client.get("/api/v1/orders", **auth).json()["items"][0]["references"] == expected
    rows = list(csv.DictReader(io.StringIO(client.get("/api/v1/orders/summary.csv", **auth).content.decode())))
    assert rows[0]["ledger_references"].split() == expected
    balance = list(csv.DictReader(io.StringIO(client.get("/api/v1/balance/summary.csv", **auth).content.decode())))
    references = [row["reference"] for row in balance]
    assert references == [
        f"deposit:{history['deposit']}",
        f"order:{order.ref}",
        f"refund:{order.ref}",
        "deposit:D-TOPUP",
        f"payout:{history['payout']}",
    ]
    payout_row = balance[-1]
    assert (payout_row["direction"], payout_row["amount_usd"]) == ("debit", "30.00")
    assert "tx-payout" in payout_row["payout_detail"]
    assert "29.000000 USDT" in payout_row["payout_detail"]
    eve = django_user_model.objects.create_user("eve@example.com", "passphrase 12", first_name="E", last_name="V")
    eve_auth = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=eve, name='t')[1]}"}
    assert history["payout"] not in client.get("/api/v1/balance/summary.csv", **eve_auth).content.decode()


def test_the_balance_page_links_its_csv(client, customer, history):
    client.force_login(customer)
    assert reverse("payments:balance_csv") in client.get(reverse("payments:balance")).content.decode()
    content = client.get(reverse("payments:balance_csv")).content.decode()
    assert f"payout:{history['payout']}" in content
