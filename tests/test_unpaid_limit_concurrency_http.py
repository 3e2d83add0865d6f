"""The per-account limit of unpaid orders holds under a burst, through real HTTP against gunicorn (issue 10).

PostgreSQL only. One account with a limit of 3 places 30 orders at once (distinct idempotency keys). Before
decision 0122 the count ran without a lock, outside the placement's transaction: concurrent placements all
counted the same orders and several more than 3 went through. Now the owner's row is locked before the count,
in the placement's transaction. Expected: exactly 3 placed, every other answer 409 `too_many_unpaid_orders`,
zero 5xx.
"""

import json

from conftest import make_gpu
from gpurent.core.testing import POSTGRES_BURST, bearer_posts, post_all, tally
from gpurent.orders.models import Order

LIMIT = 3
BURST = 30

pytestmark = POSTGRES_BURST


def test_a_burst_of_orders_from_one_account_places_exactly_the_limit(gunicorn_server, customer_with_token):
    gpu = make_gpu(slug="limit-gpu", price_7d_cents=1_000, stock_lots=BURST)
    customer, token = customer_with_token("burst@example.com")
    body = json.dumps({"gpu": gpu.slug, "term_days": 7, "lots": 1, "environment": "ubuntu"}).encode()
    requests = bearer_posts("/api/v1/orders", [body] * BURST, token=token, key="burst")

    with gunicorn_server(ORDERS_MAX_UNPAID_PER_ACCOUNT=str(LIMIT)) as server:
        answers = tally(post_all(server, requests, socket_timeout=600))

    assert answers == {(201, ""): LIMIT, (409, "too_many_unpaid_orders"): BURST - LIMIT}, answers
    assert Order.objects.filter(owner=customer).count() == LIMIT
