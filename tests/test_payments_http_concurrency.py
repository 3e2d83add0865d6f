"""Money moves once through real HTTP, whatever the number of concurrent requests on a multi-process server.

PostgreSQL only (SQLite serializes writers, so a race there proves nothing). The server is gunicorn with
several worker processes on 127.0.0.1, talking to the test database; the clients are threads released
together by a barrier:

- two orders of $60 paid from a balance of $100 at once: one is paid, the other gets `insufficient_balance`;
- one BTCPay payment delivered 20 times at once under 20 different delivery ids: credited once;
- ten requests with one idempotency key: one top-up is created, the others are told the key is in use.
"""

import json
import time
from collections import Counter

import pytest

from conftest import make_gpu
from gpurent.core.money import Usd
from gpurent.core.testing import POSTGRES_BURST, post_all
from gpurent.ledger.models import LedgerTransfer
from gpurent.ledger.selectors import balance_for, ledger_check
from gpurent.orders.models import Order
from gpurent.payments.assets import format_units, pair_get
from gpurent.payments.btcpay.webhooks import btcpay_signature
from gpurent.payments.intents.lifecycle import intent_issue_for_deposit
from gpurent.payments.models import Deposit, PaymentIntent, WebhookDelivery
from gpurent.payments.services import deposit_create
from tests.conftest import fund, orders_placed

WEBHOOK_SECRET = "concurrency-test-webhook-secret"
DELIVERIES = 20
SAME_KEY_REQUESTS = 10

pytestmark = POSTGRES_BURST


@pytest.fixture
def server(settings, gunicorn_server):
    settings.BTCPAY_WEBHOOK_SECRET = WEBHOOK_SECRET
    with gunicorn_server(BTCPAY_WEBHOOK_SECRET=WEBHOOK_SECRET) as base:
        yield base


@pytest.fixture
def customer_and_token(customer_with_token):
    return customer_with_token("racer@example.com", first_name="Race", last_name="Er")


def test_two_orders_paid_at_once_from_a_balance_that_covers_one(server, customer_and_token):
    customer, token = customer_and_token
    gpu = make_gpu(slug="sixty", price_7d_cents=6_000)
    orders = orders_placed(customer, gpu.slug, 2)
    assert [order.total for order in orders] == [Usd(6_000), Usd(6_000)]
    fund(customer, 10_000)

    results = post_all(
        server,
        [
            (
                f"/api/v1/orders/{order.ref}/pay-from-balance",
                b"",
                {"Authorization": f"Bearer {token}", "Idempotency-Key": f"pay-{order.ref}"},
            )
            for order in orders
        ],
    )

    assert sorted((status, code) for status, code, _ in results) == [(200, ""), (422, "insufficient_balance")]
    assert balance_for(customer) == Usd(4_000)
    assert Counter(Order.objects.values_list("payment_status", flat=True)) == {"paid": 1, "awaiting_payment": 1}
    assert LedgerTransfer.objects.filter(reference__startswith="order:").count() == 1
    assert ledger_check() == []


def test_one_payment_delivered_twenty_times_at_once_is_credited_once(server, customer_and_token, usdt_on_tron):
    customer, _ = customer_and_token
    deposit = deposit_create(owner=customer, amount=Usd(5_000))
    intent = intent_issue_for_deposit(deposit=deposit, owner=customer, asset="USDT", network="tron")
    value = format_units(intent.amount_units, pair_get("USDT", "tron"))
    requests = []
    for index in range(DELIVERIES):
        # Different delivery ids, so deduplication by delivery does not hide the race: only the payment id
        # (the transaction id of the confirmation) is shared.
        body = json.dumps(
            {
                "deliveryId": f"delivery-{index}",
                "webhookId": "webhook-1",
                "originalDeliveryId": f"delivery-{index}",
                "isRedelivery": False,
                "type": "InvoicePaymentSettled",
                "timestamp": int(time.time()),
                "storeId": "store-1",
                "invoiceId": "invoice-1",
                "metadata": {"orderId": str(intent.pk)},
                "payment": {"id": "payment-1", "value": value, "status": "Settled"},
            }
        ).encode()
        requests.append(("/api/v1/webhooks/btcpay", body, {"BTCPay-Sig": btcpay_signature(body, WEBHOOK_SECRET)}))

    results = post_all(server, requests)

    assert [(status, code) for status, code, _ in results] == [(200, "")] * DELIVERIES
    assert set(WebhookDelivery.objects.values_list("outcome", flat=True)) == {"payment credited"}
    intent.refresh_from_db()
    assert intent.status == "confirmed"
    [payment] = intent.payments.all()
    assert (payment.txid, payment.source, payment.deposit_id) == ("payment-1", "processor", deposit.pk)
    assert Deposit.objects.filter(owner=customer, status="credited").count() == 1
    assert LedgerTransfer.objects.filter(reference__startswith="deposit:").count() == 1
    assert balance_for(customer) == Usd(5_000)
    assert ledger_check() == []


def test_ten_requests_with_one_idempotency_key_create_one_top_up(server, customer_and_token):
    customer, token = customer_and_token
    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": "one-key-for-all"}
    body = json.dumps({"amount_usd": "25.00"}).encode()

    results = post_all(server, [("/api/v1/deposits", body, headers)] * SAME_KEY_REQUESTS)

    statuses = Counter(status for status, _, _ in results)
    assert set(statuses) <= {201, 409}, results
    assert statuses[201] >= 1
    assert {code for status, code, _ in results if status == 409} <= {"idempotency_key_in_use"}
    deposit = Deposit.objects.get(owner=customer)  # exactly one
    assert {body["ref"] for status, _, body in results if status == 201} == {deposit.ref}  # replays: the same one
    assert (deposit.requested_cents, deposit.status) == (2_500, "pending")
    assert not PaymentIntent.objects.exists()
