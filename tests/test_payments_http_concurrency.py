"""Money moves once through real HTTP, whatever the number of concurrent requests on a multi-process server.

PostgreSQL only (SQLite serializes writers, so a race there proves nothing). The server is gunicorn with
several worker processes on 127.0.0.1, talking to the test database; the clients are threads released
together by a barrier:

- two orders of $60 paid from a balance of $100 at once: one is paid, the other gets `insufficient_balance`;
- one BTCPay payment delivered 20 times at once under 20 different delivery ids: credited once;
- ten requests with one idempotency key: one top-up is created, the others are told the key is in use.
"""

import json
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import pytest
from django.db import connection
from django.utils import timezone

from conftest import make_gpu
from gpurent.accounts.services import api_token_create
from gpurent.core.money import Usd
from gpurent.ledger.models import LedgerTransfer
from gpurent.ledger.selectors import balance_for, ledger_check
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.models import Order
from gpurent.orders.services import Contact, order_place
from gpurent.payments.assets import format_units, pair_get
from gpurent.payments.models import Deposit, ExchangeRate, PaymentIntent, ReceivingAddress, WebhookDelivery
from gpurent.payments.services import deposit_create, intent_issue_for_deposit
from gpurent.payments.webhooks import btcpay_signature

WEBHOOK_SECRET = "concurrency-test-webhook-secret"
DELIVERIES = 20
SAME_KEY_REQUESTS = 10

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrency is only meaningful on PostgreSQL"),
]


@pytest.fixture
def server(settings, gunicorn_server):
    settings.BTCPAY_WEBHOOK_SECRET = WEBHOOK_SECRET
    with gunicorn_server(BTCPAY_WEBHOOK_SECRET=WEBHOOK_SECRET) as base:
        yield base


@pytest.fixture
def customer(django_user_model):
    return django_user_model.objects.create_user(
        "racer@example.com", "long enough passphrase", first_name="Race", last_name="Er"
    )


@pytest.fixture
def usdt_on_tron(db):
    """A fresh USDT rate and a shared Tron receiving address, so top-ups can be quoted."""
    ExchangeRate.objects.create(asset="USDT", usd_per_unit=Decimal("1"), source="test", as_of=timezone.now())
    ReceivingAddress.objects.create(network="tron", address="TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", mode="shared")


def post_all(
    server: str, requests: list[tuple[str, bytes, dict[str, str]]], *, socket_timeout: float = 60
) -> list[tuple[int, str, dict]]:
    """POST every (path, body, headers) at once, from one thread each; return (status, error code or '', body).

    `socket_timeout` only keeps a hung server from hanging the suite; requests that all queue on one row need
    a larger one (they are served one after the other)."""
    barrier = threading.Barrier(len(requests))

    def send(item: tuple[str, bytes, dict[str, str]]) -> tuple[int, str, dict]:
        path, body, headers = item
        request = urllib.request.Request(
            f"{server}{path}", data=body, method="POST", headers={"Content-Type": "application/json", **headers}
        )
        barrier.wait()
        try:
            with urllib.request.urlopen(request, timeout=socket_timeout) as response:
                payload = response.read()
                try:
                    return response.status, "", json.loads(payload)
                except ValueError:  # an HTML page (a desk's redirect target): only the status matters
                    return response.status, "", {}
        except urllib.error.HTTPError as error:
            payload = error.read()
            try:
                return error.code, json.loads(payload)["error"]["code"], {}
            except (ValueError, KeyError, TypeError):  # not our JSON error (a 500 page): show its start
                return error.code, payload[:300].decode(errors="replace"), {}

    with ThreadPoolExecutor(max_workers=len(requests)) as pool:
        return list(pool.map(send, requests))


def test_two_orders_paid_at_once_from_a_balance_that_covers_one(server, customer):
    gpu = make_gpu(slug="sixty", price_7d_cents=6_000)
    contact = Contact("Race", "Er", "racer@example.com")
    orders = [
        order_place(owner=customer, gpu_slug=gpu.slug, term_days=7, lots=1, environment="ubuntu", contact=contact)
        for _ in range(2)
    ]
    assert [order.total for order in orders] == [Usd(6_000), Usd(6_000)]
    transfer_post(
        reference="deposit:TEST",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(10_000),
    )
    token = api_token_create(user=customer, name="race")[1]

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


def test_one_payment_delivered_twenty_times_at_once_is_credited_once(server, customer, usdt_on_tron):
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


def test_ten_requests_with_one_idempotency_key_create_one_top_up(server, customer):
    token = api_token_create(user=customer, name="race")[1]
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
