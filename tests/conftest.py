"""Fixtures of the cross-app tests: a real multi-process server for the concurrency tests, and its customers."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from typing import IO, Any

import pytest
from django.db import connection
from django.utils import timezone

from gpurent.accounts.services import api_token_create
from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.models import Order
from gpurent.orders.rental import orders_end_terms
from gpurent.orders.services import Contact, order_place
from gpurent.payments.models import ExchangeRate, ReceivingAddress
from gpurent.payments.services import order_pay_from_balance

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
def gunicorn_nodes(
    envs: Sequence[dict[str, str]], args: Sequence[str] = ("-w", "4", "--threads", "4")
) -> Iterator[list[GunicornNode]]:
    """One gunicorn per environment, serving config.wsgi on free 127.0.0.1 ports with exactly that environment and
    the options `args`, started together; yields them once each one's `/healthz` answers, and stops them afterwards.

    Each process leads a process group of its own, so a test may kill a whole node (master and workers) with
    `os.killpg`. Its log goes to a file, not a pipe: tracebacks of failing requests would fill an unread pipe and
    block the workers (the test would then time out instead of showing the failure).
    """
    nodes: list[GunicornNode] = []
    try:
        for env in envs:
            port, log = _free_port(), tempfile.TemporaryFile()  # noqa: SIM115 (GunicornNode.stop closes it)
            process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", *args, "-b", f"127.0.0.1:{port}", "config.wsgi"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log,
                start_new_session=True,
            )
            nodes.append(GunicornNode(f"http://127.0.0.1:{port}", process, log))
        for node in nodes:
            node.wait_until_healthy()
        yield nodes
    finally:
        for node in nodes:  # all at once, then wait for each
            if node.process.poll() is None:
                node.process.terminate()
        for node in nodes:
            node.stop()


@contextmanager
def gunicorn_node(env: dict[str, str], args: Sequence[str] = ("-w", "4", "--threads", "4")) -> Iterator[GunicornNode]:
    """`gunicorn_nodes` for one node."""
    with gunicorn_nodes([env], args) as [node]:
        yield node


@dataclass
class GunicornNode:
    """A gunicorn started by `gunicorn_nodes`: its base URL, process and log file."""

    base: str
    process: subprocess.Popen[bytes]
    log: IO[bytes]

    def log_start(self) -> str:
        self.log.seek(0)
        return self.log.read(4000).decode(errors="replace")

    def wait_until_healthy(self) -> None:
        for _ in range(150):  # up to ~30 s for the workers to boot
            if self.process.poll() is not None:
                pytest.fail(f"gunicorn exited with status {self.process.returncode}: " + self.log_start())
            try:
                with urllib.request.urlopen(f"{self.base}/healthz", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        pytest.fail("gunicorn did not start: " + self.log_start())

    def stop(self) -> None:
        """SIGTERM (requests in progress finish), then SIGKILL to the whole group if it takes too long."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=30)
        self.log.close()


@contextmanager
def _gunicorn(extra_env: dict[str, str]) -> Iterator[str]:
    """gunicorn with 4 worker processes on 127.0.0.1 against the test database; yields its base URL."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "DATABASE_URL": _database_url(), **extra_env}
    with gunicorn_node(env) as node:
        yield node.base


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


def order_paid(customer: Any, gpu_slug: str, *, lots: int = 1, environment: str = "ubuntu") -> Order:
    """An order for 7 days, placed and paid from the customer's balance (fund it first)."""
    order = order_place(
        owner=customer,
        gpu_slug=gpu_slug,
        term_days=7,
        lots=lots,
        environment=environment,
        contact=Contact("C", "U", "c@x.io"),
    )
    return order_pay_from_balance(order=order, owner=customer)


def term_swept(order: Order) -> None:
    """The term sweep just after `order`'s term end."""
    ends = Order.objects.get(pk=order.pk).term_ends_at
    assert ends is not None
    orders_end_terms(now=ends + timedelta(seconds=1))
