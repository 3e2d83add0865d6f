"""Paying an extension locks its rental first (the money lock order, by key: docs/money.md), so it cannot
deadlock with a transaction that locks the rental and then the extension. PostgreSQL only."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections, transaction
from django.db.utils import OperationalError

from conftest import make_running_rental
from gpurent.core.locks import lock_rows
from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.extensions import order_extension_place
from gpurent.orders.models import Order
from gpurent.orders.services import order_lock_keys
from gpurent.payments.services import order_pay_from_balance

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks only mean something on PostgreSQL"),
]


def _waiting_on_a_lock(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
        row = cursor.fetchone()
    return bool(row) and row[0] == "Lock"


def test_order_lock_keys_put_the_rental_first(django_user_model, gpu):
    rental, extension = _rental_and_extension(django_user_model, gpu)
    assert sorted(order_lock_keys(extension)) == [rental.pk, extension.pk]
    assert rental.pk < extension.pk


def _rental_and_extension(django_user_model, gpu):
    owner = django_user_model.objects.create_user(
        "x@example.com", "long enough passphrase", first_name="X", last_name="Y"
    )
    transfer_post(
        reference="deposit:L1",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(owner),
        amount=Usd(500_000),
    )
    rental = make_running_rental(owner, gpu)
    return rental, order_extension_place(rental=rental, owner=owner, term_days=3)


def test_paying_an_extension_waits_for_the_rental_instead_of_deadlocking(django_user_model, gpu):
    rental, extension = _rental_and_extension(django_user_model, gpu)
    old_end = rental.term_ends_at
    payer_pid: list[int] = []
    outcome: list[str] = []
    payer_started = threading.Event()

    def pay() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                payer_pid.append(cursor.fetchone()[0])
            payer_started.set()
            order_pay_from_balance(order=extension, owner=extension.owner)
            outcome.append("paid")
        except OperationalError as error:  # a deadlock is reported as one
            outcome.append(f"error: {error}")
        finally:
            connections.close_all()

    with transaction.atomic():
        # Another transaction in the documented order: the rental first ...
        lock_rows((Order, [rental.pk]))
        payer = threading.Thread(target=pay)
        payer.start()
        payer_started.wait()
        # ... until the payment is blocked on one of the two orders (whichever it locks first) ...
        while payer.is_alive() and not _waiting_on_a_lock(payer_pid[0]):
            payer.join(0.01)
        # ... then the extension. With the payment holding the extension and waiting for the rental (the old
        # order), PostgreSQL would now detect a deadlock and cancel one of the two.
        lock_rows((Order, [rental.pk, extension.pk]))
    payer.join()
    assert outcome == ["paid"]
    rental.refresh_from_db()
    assert rental.term_ends_at == old_end + timedelta(days=3)
