"""The limit of open payment instructions per order holds under a burst, through real HTTP against gunicorn
(issue 16, decision 0310).

PostgreSQL only. One customer asks for instructions for one order 12 times at once (distinct idempotency keys).
The count runs in the issue's transaction, after the order's row is locked: requests count one after the other.
Expected: exactly `PAYMENTS_MAX_OPEN_INTENTS` (3) created, every other answer 409 `too_many_open_intents`,
zero 5xx. The same for a top-up (its row is the lock).
"""

import json

import pytest

from conftest import make_gpu
from gpurent.core.money import Usd
from gpurent.core.testing import POSTGRES_BURST, bearer_posts, post_all, tally
from gpurent.payments.models import PaymentIntent
from gpurent.payments.services import deposit_create
from tests.conftest import orders_placed

OPEN = 3
BURST = 12

pytestmark = POSTGRES_BURST


@pytest.mark.parametrize("kind", ["order", "top-up"])
def test_a_burst_of_instructions_for_one_order_opens_exactly_the_limit(
    gunicorn_server, customer_with_token, usdt_on_tron, kind
):
    customer, token = customer_with_token("many@example.com", first_name="Ma", last_name="Ny")
    if kind == "order":
        [order] = orders_placed(customer, make_gpu(slug="intent-gpu", price_7d_cents=1_000).slug, 1)
        path = f"/api/v1/orders/{order.ref}/intents"
    else:
        path = f"/api/v1/deposits/{deposit_create(owner=customer, amount=Usd(2_500)).ref}/intents"
    body = json.dumps({"asset": "USDT", "network": "tron"}).encode()
    requests = bearer_posts(path, [body] * BURST, token=token, key="intent")

    with gunicorn_server(PAYMENTS_MAX_OPEN_INTENTS=str(OPEN)) as server:
        answers = tally(post_all(server, requests, socket_timeout=600))

    assert answers == {(201, ""): OPEN, (409, "too_many_open_intents"): BURST - OPEN}, answers
    assert PaymentIntent.objects.filter(owner=customer).count() == OPEN
