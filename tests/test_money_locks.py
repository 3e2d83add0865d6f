"""The money lock order is enforced per transaction (gpurent/core/locks.py, decision 0486): a later `lock_rows`
call of the same transaction may not take new rows of an earlier kind; a new transaction, or what remains after a
savepoint rolled back, starts from what is really held. Runs on SQLite and on PostgreSQL (`DATABASE_URL`)."""

import contextlib
import logging
import re
from pathlib import Path

import pytest
from django.db import transaction

from gpurent.core.locks import LockOrderError, lock_rows
from gpurent.ledger.models import LedgerAccount
from gpurent.ledger.services import customer_account
from gpurent.orders.models import Order
from gpurent.orders.services import Contact, order_place

ROOT = Path(__file__).resolve().parents[1]
# A direct row lock on a kind of the money lock order; SKIP LOCKED queue reads never wait, so they may stay direct.
DIRECT_MONEY_LOCK = re.compile(
    r"\b(Order|Deposit|PaymentIntent|Payout|LedgerAccount)\.objects\.select_for_update\((?!skip_locked=True\))"
)


class Rollback(Exception):
    pass


def lock_in_a_rolled_back_block(*groups) -> None:
    """`lock_rows(*groups)` in an atomic block that then rolls back (a savepoint inside a transaction)."""
    with contextlib.suppress(Rollback), transaction.atomic():
        lock_rows(*groups)
        raise Rollback


@pytest.fixture
def rows(django_user_model, gpu) -> tuple[Order, Order, Order, LedgerAccount]:
    owner = django_user_model.objects.create_user(email="locker@example.com", password="x" * 12)
    contact = Contact("L", "O", "locker@example.com")
    first, second, third = (
        order_place(owner=owner, gpu_slug=gpu.slug, term_days=3, lots=1, environment="ubuntu", contact=contact)
        for _ in range(3)
    )
    return first, second, third, customer_account(owner)


@pytest.mark.django_db
def test_lock_rows_an_earlier_kind_after_a_later_one_in_the_same_transaction_raises(rows):
    order, _, _, account = rows
    with transaction.atomic():
        lock_rows((LedgerAccount, [account.pk]))
        with pytest.raises(LockOrderError, match=r"orders\.order .* locked after this transaction locked ledger"):
            lock_rows((Order, [order.pk]))


@pytest.mark.django_db
def test_lock_rows_the_same_order_across_calls_and_rows_already_held_pass(rows):
    order, _, _, account = rows
    with transaction.atomic():
        lock_rows((Order, [order.pk]))
        lock_rows((LedgerAccount, [account.pk]))
        # The services a service calls re-lock what it holds, in any order: those rows are not waited for.
        lock_rows((Order, [order.pk]))
        lock_rows((Order, [order.pk]), (LedgerAccount, [account.pk]))


@pytest.mark.django_db
def test_lock_rows_a_new_transaction_starts_clean(rows):
    order, _, _, account = rows
    with transaction.atomic():
        lock_rows((LedgerAccount, [account.pk]))
    with transaction.atomic():
        lock_rows((Order, [order.pk]))


@pytest.mark.django_db
def test_lock_rows_a_rolled_back_savepoint_leaves_nothing_held(rows):
    order, other, _, account = rows
    with transaction.atomic():
        lock_rows((Order, [order.pk]))
        lock_in_a_rolled_back_block((LedgerAccount, [account.pk]))
        # The account's lock went with the savepoint; another order may still be locked.
        lock_rows((Order, [other.pk]))


@pytest.mark.django_db
def test_lock_rows_a_released_savepoint_keeps_its_rows_held(rows):
    order, _, _, account = rows
    with transaction.atomic():
        with transaction.atomic():
            lock_rows((LedgerAccount, [account.pk]))
        with pytest.raises(LockOrderError):
            lock_rows((Order, [order.pk]))


@pytest.mark.django_db(transaction=True)
def test_lock_rows_after_a_commit_or_a_rollback_a_real_transaction_starts_clean(rows):
    order, other, third, account = rows
    with transaction.atomic():
        lock_rows((Order, [order.pk]), (LedgerAccount, [account.pk]))
    with transaction.atomic():
        lock_rows((Order, [other.pk]))
        lock_rows((LedgerAccount, [account.pk]))
    lock_in_a_rolled_back_block((LedgerAccount, [account.pk]))
    with transaction.atomic():
        lock_rows((Order, [order.pk]))
        lock_in_a_rolled_back_block((LedgerAccount, [account.pk]))
        lock_rows((Order, [other.pk]))  # the savepoint's account lock is gone
        lock_rows((LedgerAccount, [account.pk]))
        with pytest.raises(LockOrderError):  # this one is held till the end of this real transaction
            lock_rows((Order, [third.pk]))


@pytest.mark.django_db
def test_lock_rows_in_production_logs_a_wrong_order_and_takes_the_lock(rows, settings, caplog):
    settings.LOCK_ORDER_STRICT = False
    order, _, _, account = rows
    with transaction.atomic(), caplog.at_level(logging.ERROR, logger="gpurent.core.locks"):
        lock_rows((LedgerAccount, [account.pk]))
        lock_rows((Order, [order.pk]))
    assert [record.getMessage() for record in caplog.records] == [
        f"money lock order: orders.order [{order.pk}] locked after this transaction locked ledger.ledgeraccount: "
        "see the money lock order in gpurent/core/locks.py"
    ]


@pytest.mark.django_db
def test_lock_rows_out_of_order_in_one_call_raises_even_in_production(rows, settings):
    settings.LOCK_ORDER_STRICT = False
    order, _, _, account = rows
    with transaction.atomic(), pytest.raises(LockOrderError, match="locked after a later kind"):
        lock_rows((LedgerAccount, [account.pk]), (Order, [order.pk]))


def test_money_rows_are_locked_only_through_lock_rows():
    direct = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "gpurent").rglob("*.py"))
        if "tests" not in path.parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if DIRECT_MONEY_LOCK.search(line)
    ]
    assert direct == []
