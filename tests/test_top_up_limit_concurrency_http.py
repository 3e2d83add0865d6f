"""The limit of unpaid top-ups per account holds under a burst, through real HTTP against gunicorn (issue 16,
decision 0320).

PostgreSQL only. One customer asks for 12 top-ups at once (distinct idempotency keys). Each request locks the
customer's user row first and counts under it: requests count one after the other. Expected: exactly
`PAYMENTS_MAX_PENDING_TOP_UPS` (5) created, every other answer 409 `too_many_pending_top_ups`, zero 5xx.
"""

import json

from gpurent.core.testing import POSTGRES_BURST, bearer_posts, post_all, tally
from gpurent.payments.models import Deposit

LIMIT = 5
BURST = 12

pytestmark = POSTGRES_BURST


def test_a_burst_of_top_ups_creates_exactly_the_limit(gunicorn_server, customer_with_token):
    customer, token = customer_with_token("topups@example.com")
    body = json.dumps({"amount_usd": "25.00"}).encode()
    requests = bearer_posts("/api/v1/deposits", [body] * BURST, token=token, key="top-up")

    with gunicorn_server(PAYMENTS_MAX_PENDING_TOP_UPS=str(LIMIT)) as server:
        answers = tally(post_all(server, requests, socket_timeout=600))

    assert answers == {(201, ""): LIMIT, (409, "too_many_pending_top_ups"): BURST - LIMIT}, answers
    assert Deposit.objects.filter(owner=customer).count() == LIMIT
