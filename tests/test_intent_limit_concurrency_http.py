"""The limit of open payment instructions per order holds under a burst, through real HTTP against gunicorn
(issue 16, decision 0310).

PostgreSQL only. One customer asks for instructions for one order 12 times at once (distinct idempotency keys).
The count runs in the issue's transaction, after the order's row is locked: requests count one after the other.
Expected: exactly `PAYMENTS_MAX_OPEN_INTENTS` (3) created, every other answer 409 `too_many_open_intents`,
zero 5xx. The same for a top-up (its row is the lock).

Decision 0336 counts under the same lock: with the open limit out of the way, an order or a top-up that already
has intents the payment processor never prepared gets exactly what its limits leave, 1 more (9 usable + 9 never
prepared: the 10 in all) or 5 more (15 never prepared: the 20 intents of any kind), every other answer 409
`intent_limit_reached`.
"""

import json
from collections import Counter
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.utils import timezone

from conftest import make_gpu
from gpurent.accounts.services import api_token_create
from gpurent.core.money import Usd
from gpurent.orders.models import Order
from gpurent.orders.services import Contact, order_place
from gpurent.payments.models import ExchangeRate, PaymentIntent, ReceivingAddress
from gpurent.payments.services import deposit_create, intent_issue_for_deposit, intent_issue_for_order
from tests.test_payments_http_concurrency import post_all

OPEN = 3
BURST = 12

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrency is only meaningful on PostgreSQL"),
]


@pytest.fixture
def server(gunicorn_server):
    with gunicorn_server(PAYMENTS_MAX_OPEN_INTENTS=str(OPEN)) as base:
        yield base


@pytest.fixture
def server_without_open_limit(gunicorn_server):
    with gunicorn_server(PAYMENTS_MAX_OPEN_INTENTS=str(BURST + 20)) as base:
        yield base


def customer_and_path(django_user_model, kind):
    """A customer, the order or top-up to ask instructions for, and the API path that asks."""
    ExchangeRate.objects.create(asset="USDT", usd_per_unit=Decimal("1"), source="test", as_of=timezone.now())
    ReceivingAddress.objects.create(network="tron", address="TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", mode="shared")
    customer = django_user_model.objects.create_user(
        "many@example.com", "long enough passphrase", first_name="Ma", last_name="Ny"
    )
    if kind == "order":
        gpu = make_gpu(slug="intent-gpu", price_7d_cents=1_000)
        order = order_place(
            owner=customer,
            gpu_slug=gpu.slug,
            term_days=7,
            lots=1,
            environment="ubuntu",
            contact=Contact("Ma", "Ny", "many@example.com"),
        )
        return customer, order, f"/api/v1/orders/{order.ref}/intents"
    deposit = deposit_create(owner=customer, amount=Usd(2_500))
    return customer, deposit, f"/api/v1/deposits/{deposit.ref}/intents"


def burst(server, customer, path):
    """`BURST` requests for instructions at once, each with its own idempotency key."""
    token = api_token_create(user=customer, name="burst")[1]
    body = json.dumps({"asset": "USDT", "network": "tron"}).encode()
    requests = [
        (path, body, {"Authorization": f"Bearer {token}", "Idempotency-Key": f"intent-{index}"})
        for index in range(BURST)
    ]

    results = post_all(server, requests, socket_timeout=600)
    return Counter((status, code) for status, code, _ in results)


@pytest.mark.parametrize("kind", ["order", "top-up"])
def test_a_burst_of_instructions_for_one_order_opens_exactly_the_limit(server, django_user_model, kind):
    customer, _, path = customer_and_path(django_user_model, kind)

    answers = burst(server, customer, path)

    assert answers == {(201, ""): OPEN, (409, "too_many_open_intents"): BURST - OPEN}, answers
    assert PaymentIntent.objects.filter(owner=customer).count() == OPEN


def earlier_intents(customer, target, *, usable, never_prepared):
    """Intents asked for before the burst, all expired: `usable` ones that were shown, then `never_prepared` ones
    the payment processor failed (closed, no invoice, no address), made through the service one at a time."""
    for number in range(usable + never_prepared):
        if isinstance(target, Order):
            intent = intent_issue_for_order(order=target, owner=customer, asset="USDT", network="tron")
        else:
            intent = intent_issue_for_deposit(deposit=target, owner=customer, asset="USDT", network="tron")
        PaymentIntent.objects.filter(pk=intent.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
        if number >= usable:
            PaymentIntent.objects.filter(pk=intent.pk).update(
                processor="btcpay", processor_invoice_id="", address="", status="closed"
            )


@pytest.mark.parametrize("kind", ["order", "top-up"])
@pytest.mark.parametrize(("usable", "never_prepared", "created"), [(9, 9, 1), (0, 15, 5)])
def test_a_burst_after_processor_failures_gets_exactly_what_the_limits_leave(
    server_without_open_limit, django_user_model, kind, usable, never_prepared, created
):
    customer, target, path = customer_and_path(django_user_model, kind)
    earlier_intents(customer, target, usable=usable, never_prepared=never_prepared)

    answers = burst(server_without_open_limit, customer, path)

    assert answers == {(201, ""): created, (409, "intent_limit_reached"): BURST - created}, answers
    assert PaymentIntent.objects.filter(owner=customer).count() == usable + never_prepared + created
