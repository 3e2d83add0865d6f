"""Over-selling is impossible through real HTTP: 50 buyers race for 5 lots on a multi-process server.

PostgreSQL only (SQLite serializes writers, so a race there proves nothing). The server is gunicorn with
several worker processes on 127.0.0.1, talking to the test database; the buyers are 50 threads, each with its
own account and API token, released together by a barrier.
"""

import json

from gpurent.catalog.models import GpuModel
from gpurent.core.testing import POSTGRES_BURST, post_all, tally
from gpurent.orders.models import Order

BUYERS = 50
STOCK = 5

pytestmark = POSTGRES_BURST


def test_fifty_concurrent_checkouts_for_five_lots_sell_exactly_five(gunicorn_server, customer_with_token, gpu):
    GpuModel.objects.filter(pk=gpu.pk).update(stock_lots=STOCK)
    tokens = [customer_with_token(f"buyer{index}@example.com")[1] for index in range(BUYERS)]
    body = json.dumps({"gpu": gpu.slug, "term_days": 7, "lots": 1, "environment": "ubuntu"}).encode()
    requests = [
        ("/api/v1/orders", body, {"Authorization": f"Bearer {token}", "Idempotency-Key": f"race-{index}"})
        for index, token in enumerate(tokens)
    ]

    with gunicorn_server() as server:
        answers = tally(post_all(server, requests))

    assert answers == {(201, ""): STOCK, (409, "out_of_stock"): BUYERS - STOCK}, answers
    assert GpuModel.objects.get(pk=gpu.pk).stock_lots == 0
    assert Order.objects.count() == STOCK
