"""The per-account limit of unpaid orders holds under a burst, through real HTTP against gunicorn (issue 10).

PostgreSQL only. One account with a limit of 3 places 30 orders at once (distinct idempotency keys). Before
decision 0122 the count ran without a lock, outside the placement's transaction: concurrent placements all
counted the same orders and several more than 3 went through. Now the owner's row is locked before the count,
in the placement's transaction. Expected: exactly 3 placed, every other answer 409 `too_many_unpaid_orders`,
zero 5xx.
"""

import json
from collections import Counter

import pytest
from django.db import connection

from conftest import make_gpu
from gpurent.accounts.services import api_token_create
from gpurent.orders.models import Order
from tests.test_payments_http_concurrency import post_all

LIMIT = 3
BURST = 30

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrency is only meaningful on PostgreSQL"),
]


@pytest.fixture
def server(gunicorn_server):
    with gunicorn_server(ORDERS_MAX_UNPAID_PER_ACCOUNT=str(LIMIT)) as base:
        yield base


def test_a_burst_of_orders_from_one_account_places_exactly_the_limit(server, django_user_model):
    gpu = make_gpu(slug="limit-gpu", price_7d_cents=1_000, stock_lots=BURST)
    customer = django_user_model.objects.create_user(
        "burst@example.com", "long enough passphrase", first_name="Bur", last_name="St"
    )
    token = api_token_create(user=customer, name="burst")[1]
    body = json.dumps({"gpu": gpu.slug, "term_days": 7, "lots": 1, "environment": "ubuntu"}).encode()
    requests = [
        ("/api/v1/orders", body, {"Authorization": f"Bearer {token}", "Idempotency-Key": f"burst-{index}"})
        for index in range(BURST)
    ]

    results = post_all(server, requests, socket_timeout=600)

    answers = Counter((status, code) for status, code, _ in results)
    assert answers == {(201, ""): LIMIT, (409, "too_many_unpaid_orders"): BURST - LIMIT}, answers
    assert Order.objects.filter(owner=customer).count() == LIMIT
