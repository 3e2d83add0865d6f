"""The deadlocks of issue 10 (problem 6), each run 50 times at once through real HTTP against gunicorn.

Every request of a scenario touches one customer account, so the server serves them one after the other: the
client's socket timeout is large, it only keeps a hung server from hanging the suite.

PostgreSQL only. One customer, so every request contends for the same customer account:

- 50 BTCPay confirmations of the customer's order intents while the customer pays 50 other orders from the
  balance through the API;
- 50 BTCPay confirmations while an operator fails 50 other paid orders of the customer with a refund, through
  the provisioning desk.

Before the money lock order (gpurent/core/locks.py) a confirmation locked the customer account, then the
revenue account; paying from the balance and refunding locked revenue first (lower id): a deadlock, a 500.
Now system accounts are never locked and every transaction locks order → intent → customer account.
Expected: zero deadlocks, zero 5xx, every order paid (or failed and refunded), the ledger consistent.
"""

import json
import secrets
import time
from collections import Counter

import pytest
from django.test import Client

from conftest import make_gpu
from gpurent.core.money import Usd
from gpurent.core.testing import POSTGRES_BURST, post_all
from gpurent.ledger.selectors import balance_for, ledger_check
from gpurent.orders.models import Order
from gpurent.orders.provisioning import provision_start
from gpurent.payments.assets import format_units, pair_get
from gpurent.payments.btcpay.webhooks import btcpay_signature
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.services import order_pay_from_balance
from tests.conftest import fund, orders_placed

WEBHOOK_SECRET = "deadlock-test-webhook-secret"
TIMES = 50

pytestmark = POSTGRES_BURST


@pytest.fixture
def server(settings, gunicorn_server):
    settings.BTCPAY_WEBHOOK_SECRET = WEBHOOK_SECRET
    settings.ORDERS_MAX_UNPAID_PER_ACCOUNT = 1_000
    with gunicorn_server(BTCPAY_WEBHOOK_SECRET=WEBHOOK_SECRET) as base:
        yield base


@pytest.fixture
def shop(usdt_on_tron, customer_with_token):
    """(customer, their API token, a GPU with stock for every order of a scenario)."""
    customer, token = customer_with_token("deadlock@example.com", first_name="Dead", last_name="Lock")
    return customer, token, make_gpu(slug="deadlock-gpu", price_7d_cents=1_000, stock_lots=10 * TIMES)


def confirmations(customer, orders):
    """One signed BTCPay 'payment settled' per order, for an intent issued while the balance was empty."""
    requests = []
    for index, order in enumerate(orders):
        intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
        body = json.dumps(
            {
                "deliveryId": f"delivery-{index}",
                "type": "InvoicePaymentSettled",
                "timestamp": int(time.time()),
                "invoiceId": f"invoice-{index}",
                "metadata": {"orderId": str(intent.pk)},
                "payment": {
                    "id": f"{index:064x}-0",
                    "value": format_units(intent.amount_units, pair_get("USDT", "tron")),
                    "status": "Settled",
                },
            }
        ).encode()
        requests.append(("/api/v1/webhooks/btcpay", body, {"BTCPay-Sig": btcpay_signature(body, WEBHOOK_SECRET)}))
    return requests


def test_confirmations_while_the_customer_pays_other_orders_from_the_balance(server, shop):
    customer, token, gpu = shop
    by_crypto, by_balance = orders_placed(customer, gpu.slug, TIMES), orders_placed(customer, gpu.slug, TIMES)
    requests = confirmations(customer, by_crypto)  # issued while the balance is empty: each asks the total
    fund(customer, sum(order.total_cents for order in by_balance))
    requests += [
        (
            f"/api/v1/orders/{order.ref}/pay-from-balance",
            b"",
            {"Authorization": f"Bearer {token}", "Idempotency-Key": f"pay-{order.ref}"},
        )
        for order in by_balance
    ]

    results = post_all(server, requests, socket_timeout=900)

    assert Counter(status for status, _, _ in results) == {200: 2 * TIMES}, [r for r in results if r[0] != 200]
    assert Counter(Order.objects.values_list("payment_status", flat=True)) == {"paid": 2 * TIMES}
    assert balance_for(customer) == Usd(0)
    assert ledger_check() == []


def test_confirmations_while_an_operator_fails_other_orders_with_a_refund(server, shop, django_user_model):
    customer, _, gpu = shop
    by_crypto, to_fail = orders_placed(customer, gpu.slug, TIMES), orders_placed(customer, gpu.slug, TIMES)
    requests = confirmations(customer, by_crypto)
    fund(customer, sum(order.total_cents for order in to_fail))
    for order in to_fail:
        provision_start(order=order_pay_from_balance(order=order, owner=customer), actor=None)
    operator = django_user_model.objects.create_superuser(
        "ops@shop.example", "long enough passphrase", first_name="O", last_name="P"
    )
    client = Client()
    client.force_login(operator)  # a session row the server reads
    csrf = secrets.token_hex(16)  # a 32-character CSRF secret, sent as cookie and as form field
    cookie = f"sessionid={client.cookies['sessionid'].value}; csrftoken={csrf}"
    requests += [
        (
            f"/backoffice/backoffice/provisioningdesk/{order.pk}/change/",
            f"csrfmiddlewaretoken={csrf}&idempotency_key=fail-{order.pk}&action=failed&reason=no+machine&port=22".encode(),
            {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"},
        )
        for order in to_fail
    ]

    results = post_all(server, requests, socket_timeout=900)

    statuses = Counter(status for status, _, _ in results)
    assert all(status < 500 for status in statuses), [r for r in results if r[0] >= 500][:3]
    assert Counter(
        Order.objects.filter(pk__in=[o.pk for o in to_fail]).values_list("provisioning_status", flat=True)
    ) == {"failed": TIMES}
    assert Counter(Order.objects.filter(pk__in=[o.pk for o in by_crypto]).values_list("payment_status", flat=True)) == {
        "paid": TIMES
    }
    # Every refund came back to the balance; every crypto payment paid its own order.
    assert balance_for(customer) == Usd(sum(order.total_cents for order in to_fail))
    assert ledger_check() == []
