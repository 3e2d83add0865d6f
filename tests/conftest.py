"""Fixtures of the cross-app tests: a real multi-process server for the concurrency tests, and its customers."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from gpurent.accounts.services import api_token_create
from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.models import Order
from gpurent.orders.services import Contact, order_place
from gpurent.payments.models import ExchangeRate, ReceivingAddress

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "long enough passphrase"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _database_url() -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@contextmanager
def _gunicorn(extra_env: dict[str, str]) -> Iterator[str]:
    """gunicorn with 4 worker processes on 127.0.0.1 against the test database; yields its base URL."""
    port = _free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "DATABASE_URL": _database_url(), **extra_env}
    # The server's log goes to a file, not a pipe: tracebacks of failing requests would fill an unread pipe and
    # block the workers (the test would then time out instead of showing the failure).
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}", "-w", "4", "--threads", "4"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
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
                log.seek(0)
                pytest.fail("gunicorn did not start: " + log.read(4000).decode(errors="replace"))
            yield base
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=30)


@pytest.fixture
def gunicorn_server() -> Callable[..., AbstractContextManager[str]]:
    """`with gunicorn_server(EXTRA_ENV="x") as base_url:` a live multi-process server for one test."""
    return lambda **extra_env: _gunicorn(extra_env)


@pytest.fixture
def customer_with_token(django_user_model) -> Callable[..., tuple[Any, str]]:
    """`customer, token = customer_with_token("a@example.com")`: a new customer (password `PASSWORD`, named
    "Bur St" unless `first_name`/`last_name` say otherwise) and a live API token of theirs, to send a burst as."""

    def make(email: str, *, first_name: str = "Bur", last_name: str = "St") -> tuple[Any, str]:
        user = django_user_model.objects.create_user(email, PASSWORD, first_name=first_name, last_name=last_name)
        return user, api_token_create(user=user, name="burst")[1]

    return make


@pytest.fixture
def usdt_on_tron(db) -> None:
    """A fresh USDT rate and a shared Tron receiving address, so payment instructions can be quoted."""
    ExchangeRate.objects.create(asset="USDT", usd_per_unit=Decimal("1"), source="test", as_of=timezone.now())
    ReceivingAddress.objects.create(network="tron", address="TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", mode="shared")


def fund(customer: Any, cents: int) -> None:
    """Credit `cents` to the customer's balance from outside, as a confirmed crypto deposit would."""
    transfer_post(
        reference="deposit:FUNDING",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(cents),
    )


def orders_placed(customer: Any, gpu_slug: str, count: int) -> list[Order]:
    """`count` unpaid orders of one lot for 7 days, placed by the customer in their own name."""
    contact = Contact(customer.first_name, customer.last_name, customer.email)
    return [
        order_place(owner=customer, gpu_slug=gpu_slug, term_days=7, lots=1, environment="ubuntu", contact=contact)
        for _ in range(count)
    ]
