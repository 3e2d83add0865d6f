"""The limit of unpaid top-ups per account holds under a burst, through real HTTP against gunicorn (issue 16,
decision 0320).

PostgreSQL only. One customer asks for 12 top-ups at once (distinct idempotency keys). Each request locks the
customer's user row first and counts under it: requests count one after the other. Expected: exactly
`PAYMENTS_MAX_PENDING_TOP_UPS` (5) created, every other answer 409 `too_many_pending_top_ups`, zero 5xx.
"""

import json
from collections import Counter

import pytest
from django.db import connection

from gpurent.accounts.services import api_token_create
from gpurent.payments.models import Deposit
from tests.test_payments_http_concurrency import post_all

LIMIT = 5
BURST = 12

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrency is only meaningful on PostgreSQL"),
]


@pytest.fixture
def server(gunicorn_server):
    with gunicorn_server(PAYMENTS_MAX_PENDING_TOP_UPS=str(LIMIT)) as base:
        yield base


def test_a_burst_of_top_ups_creates_exactly_the_limit(server, django_user_model):
    customer = django_user_model.objects.create_user(
        "topups@example.com", "long enough passphrase", first_name="To", last_name="Pup"
    )
    token = api_token_create(user=customer, name="burst")[1]
    body = json.dumps({"amount_usd": "25.00"}).encode()
    requests = [
        ("/api/v1/deposits", body, {"Authorization": f"Bearer {token}", "Idempotency-Key": f"top-up-{index}"})
        for index in range(BURST)
    ]

    results = post_all(server, requests, socket_timeout=600)

    answers = Counter((status, code) for status, code, _ in results)
    assert answers == {(201, ""): LIMIT, (409, "too_many_pending_top_ups"): BURST - LIMIT}, answers
    assert Deposit.objects.filter(owner=customer).count() == LIMIT
