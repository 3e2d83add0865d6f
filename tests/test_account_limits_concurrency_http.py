"""The per-account maximums of SSH keys and live API tokens hold under a burst, through real HTTP against gunicorn
(issue 16, decision 0291).

PostgreSQL only. One account with a maximum of 3 sends 20 additions at once. The count runs under the owner's row
lock in the addition's transaction (like the unpaid-order limit, decision 0122), so the additions count one after
the other: exactly 3 succeed, every other answer is 409 with the list's code, zero 5xx.
"""

import json
from collections import Counter

import pytest
from django.db import connection

from gpurent.accounts.models import ApiToken, SshKey
from gpurent.accounts.services import api_token_create
from gpurent.core.testing import public_key
from tests.test_payments_http_concurrency import post_all

LIMIT = 3
BURST = 20
PASSWORD = "long enough passphrase"

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrency is only meaningful on PostgreSQL"),
]


@pytest.fixture
def server(gunicorn_server):
    with gunicorn_server(ACCOUNTS_MAX_SSH_KEYS=str(LIMIT), ACCOUNTS_MAX_LIVE_API_TOKENS=str(LIMIT)) as base:
        yield base


@pytest.fixture
def customer(django_user_model):
    return django_user_model.objects.create_user("burst@example.com", PASSWORD, first_name="Bur", last_name="St")


def test_a_burst_of_ssh_keys_from_one_account_adds_exactly_the_limit(server, customer):
    token = api_token_create(user=customer, name="burst")[1]
    requests = [
        (
            "/api/v1/ssh-keys",
            json.dumps({"name": f"key {index}", "public_key": public_key(f"k{index}")}).encode(),
            {"Authorization": f"Bearer {token}", "Idempotency-Key": f"burst-{index}"},
        )
        for index in range(BURST)
    ]

    answers = Counter((status, code) for status, code, _ in post_all(server, requests, socket_timeout=600))

    assert answers == {(201, ""): LIMIT, (409, "too_many_ssh_keys"): BURST - LIMIT}, answers
    assert SshKey.objects.filter(user=customer).count() == LIMIT


def test_a_burst_of_api_tokens_for_one_account_makes_exactly_the_limit(server, customer):
    body = json.dumps({"email": customer.email, "password": PASSWORD, "name": "burst"}).encode()
    requests: list[tuple[str, bytes, dict[str, str]]] = [("/api/v1/auth/tokens", body, {}) for _ in range(BURST)]

    answers = Counter((status, code) for status, code, _ in post_all(server, requests, socket_timeout=600))

    assert answers == {(201, ""): LIMIT, (409, "too_many_api_tokens"): BURST - LIMIT}, answers
    assert ApiToken.objects.filter(user=customer, revoked_at__isnull=True).count() == LIMIT
