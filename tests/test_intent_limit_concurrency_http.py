"""The limit of open payment instructions per order holds under a burst, through real HTTP against gunicorn
(issue 16, decision 0310).

PostgreSQL only. One customer asks for instructions for one order 12 times at once (distinct idempotency keys).
The count runs in the issue's transaction, after the order's row is locked: requests count one after the other.
Expected: exactly `PAYMENTS_MAX_OPEN_INTENTS` (3) created, every other answer 409 `too_many_open_intents`,
zero 5xx. The same for a top-up (its row is the lock).
"""

import json
from collections import Counter
from decimal import Decimal

import pytest
from django.db import connection
from django.utils import timezone

from conftest import make_gpu
from gpurent.accounts.services import api_token_create
from gpurent.core.money import Usd
from gpurent.orders.services import Contact, order_place
from gpurent.payments.models import ExchangeRate, PaymentIntent, ReceivingAddress
from gpurent.payments.services import deposit_create
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


@pytest.mark.parametrize("kind", ["order", "top-up"])
def test_a_burst_of_instructions_for_one_order_opens_exactly_the_limit(server, django_user_model, kind):
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
        path = f"/api/v1/orders/{order.ref}/intents"
    else:
        path = f"/api/v1/deposits/{deposit_create(owner=customer, amount=Usd(2_500)).ref}/intents"
    token = api_token_create(user=customer, name="burst")[1]
    body = json.dumps({"asset": "USDT", "network": "tron"}).encode()
    requests = [
        (path, body, {"Authorization": f"Bearer {token}", "Idempotency-Key": f"intent-{index}"})
        for index in range(BURST)
    ]

    results = post_all(server, requests, socket_timeout=600)

    answers = Counter((status, code) for status, code, _ in results)
    assert answers == {(201, ""): OPEN, (409, "too_many_open_intents"): BURST - OPEN}, answers
    assert PaymentIntent.objects.filter(owner=customer).count() == OPEN
