"""The per-account maximums of SSH keys and live API tokens hold under a burst, through real HTTP against gunicorn
(issue 16, decision 0291).

PostgreSQL only. One account with a maximum of 3 sends 20 additions at once. The count runs under the owner's row
lock in the addition's transaction (like the unpaid-order limit, decision 0122), so the additions count one after
the other: exactly 3 succeed, every other answer is 409 with the list's code, zero 5xx.
"""

import json

import pytest

from gpurent.accounts.models import ApiToken, SshKey
from gpurent.core.testing import POSTGRES_BURST, bearer_posts, post_all, public_key, tally
from tests.conftest import PASSWORD

LIMIT = 3
BURST = 20

pytestmark = POSTGRES_BURST


@pytest.fixture
def server(gunicorn_server):
    with gunicorn_server(ACCOUNTS_MAX_SSH_KEYS=str(LIMIT), ACCOUNTS_MAX_LIVE_API_TOKENS=str(LIMIT)) as base:
        yield base


def test_a_burst_of_ssh_keys_from_one_account_adds_exactly_the_limit(server, customer_with_token):
    customer, token = customer_with_token("burst@example.com")
    bodies = [
        json.dumps({"name": f"key {index}", "public_key": public_key(f"k{index}")}).encode() for index in range(BURST)
    ]

    requests = bearer_posts("/api/v1/ssh-keys", bodies, token=token, key="burst")

    answers = tally(post_all(server, requests, socket_timeout=600))

    assert answers == {(201, ""): LIMIT, (409, "too_many_ssh_keys"): BURST - LIMIT}, answers
    assert SshKey.objects.filter(user=customer).count() == LIMIT


def test_a_burst_of_api_tokens_for_one_account_makes_exactly_the_limit(server, django_user_model):
    customer = django_user_model.objects.create_user("burst@example.com", PASSWORD)  # no token: it would count
    body = json.dumps({"email": customer.email, "password": PASSWORD, "name": "burst"}).encode()

    answers = tally(post_all(server, [("/api/v1/auth/tokens", body, {})] * BURST, socket_timeout=600))

    assert answers == {(201, ""): LIMIT, (409, "too_many_api_tokens"): BURST - LIMIT}, answers
    assert ApiToken.objects.filter(user=customer, revoked_at__isnull=True).count() == LIMIT
