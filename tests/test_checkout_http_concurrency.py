"""Over-selling is impossible through real HTTP: 50 buyers race for 5 lots on a multi-process server.

PostgreSQL only (SQLite serializes writers, so a race there proves nothing). The server is gunicorn with
several worker processes on 127.0.0.1, talking to the test database; the buyers are 50 threads, each with its
own account and API token, released together by a barrier.
"""

import json
import threading
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from gpurent.accounts.services import api_token_create
from gpurent.catalog.models import GpuModel
from gpurent.orders.models import Order

BUYERS = 50
STOCK = 5

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrency is only meaningful on PostgreSQL"),
]


@pytest.fixture
def server(gunicorn_server):
    with gunicorn_server() as base:
        yield base


def test_fifty_concurrent_checkouts_for_five_lots_sell_exactly_five(server, django_user_model, gpu):
    GpuModel.objects.filter(pk=gpu.pk).update(stock_lots=STOCK)
    tokens = []
    for index in range(BUYERS):
        user = django_user_model.objects.create_user(
            f"buyer{index}@example.com", "long enough passphrase", first_name="Buyer", last_name=str(index)
        )
        tokens.append(api_token_create(user=user, name="race")[1])
    barrier = threading.Barrier(BUYERS)
    body = json.dumps({"gpu": gpu.slug, "term_days": 7, "lots": 1, "environment": "ubuntu"}).encode()

    def buy(index: int) -> tuple[int, str]:
        request = urllib.request.Request(
            f"{server}/api/v1/orders",
            data=body,
            method="POST",
            headers={
                "Content-Type": "application/json",
                "Authorization": f"Bearer {tokens[index]}",
                "Idempotency-Key": f"race-{index}",
            },
        )
        barrier.wait()
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, ""
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())["error"]["code"]

    with ThreadPoolExecutor(max_workers=BUYERS) as pool:
        results = list(pool.map(buy, range(BUYERS)))

    assert Counter(status for status, _ in results) == {201: STOCK, 409: BUYERS - STOCK}
    assert {code for status, code in results if status == 409} == {"out_of_stock"}
    assert GpuModel.objects.get(pk=gpu.pk).stock_lots == 0
    assert Order.objects.count() == STOCK
