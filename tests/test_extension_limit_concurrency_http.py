"""The per-rental maximum of extensions holds under a burst, through real HTTP against gunicorn (issue 16, decision
0353).

PostgreSQL only. A running rental with a maximum of 3 extensions already has 2 (cancelled); 20 extensions of it are
asked for at once (distinct idempotency keys). `order_extension_place` locks the rental's row (`SELECT … FOR
UPDATE`) before it counts the extensions (and before it looks for an unpaid one), so the requests count one after
the other: exactly one is placed, the 3rd, and every other answer is 409 `too_many_extensions`, zero 5xx. The
same lock is what already kept "one unpaid extension at a time" (409 `extension_pending`) true under a burst.
"""

import json

from conftest import make_gpu, make_running_rental
from gpurent.core.testing import POSTGRES_BURST, bearer_posts, post_all, tally
from gpurent.orders.extensions import order_extension_place
from gpurent.orders.models import Order
from gpurent.orders.services import order_cancel
from tests.conftest import fund

LIMIT = 3
BURST = 20

pytestmark = POSTGRES_BURST


def test_a_burst_of_extensions_at_the_edge_places_exactly_one(gunicorn_server, customer_with_token):
    gpu = make_gpu(slug="extend-gpu")
    customer, token = customer_with_token("renew@example.com")
    fund(customer, 100_000)
    rental = make_running_rental(customer, gpu)
    for _ in range(LIMIT - 1):
        order_cancel(order=order_extension_place(rental=rental, owner=customer, term_days=3), actor=customer)
    body = json.dumps({"term_days": 3}).encode()
    requests = bearer_posts(f"/api/v1/orders/{rental.ref}/extend", [body] * BURST, token=token, key="renew")

    with gunicorn_server(ORDERS_MAX_EXTENSIONS_PER_RENTAL=str(LIMIT)) as server:
        answers = tally(post_all(server, requests, socket_timeout=600))

    assert answers == {(201, ""): 1, (409, "too_many_extensions"): BURST - 1}, answers
    assert Order.objects.filter(extends=rental).count() == LIMIT
    assert Order.objects.filter(extends=rental, payment_status="awaiting_payment").count() == 1
