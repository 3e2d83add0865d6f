"""Over-selling is impossible through real HTTP: 50 buyers race for 5 lots on a multi-process server.

PostgreSQL only (SQLite serializes writers, so a race there proves nothing). The server is gunicorn with
several worker processes on 127.0.0.1, talking to the test database; the buyers are 50 threads, each with its
own account and API token, released together by a barrier.
"""

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.db import connection

from gpurent.accounts.services import api_token_create
from gpurent.catalog.models import GpuModel
from gpurent.orders.models import Order

ROOT = Path(__file__).resolve().parents[1]
BUYERS = 50
STOCK = 5

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrency is only meaningful on PostgreSQL"),
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url() -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def server():
    port = free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "DATABASE_URL": database_url()}
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}", "-w", "4", "--threads", "4"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):  # up to ~20 s for the workers to boot
            try:
                with urllib.request.urlopen(f"{base}/healthz", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("gunicorn did not start: " + (process.stderr.read(4000).decode() if process.stderr else ""))
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)


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
