"""The ledger's rules: postings, balances, references, reversals, append-only, and the invariants check."""

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from gpurent.core.money import Usd
from gpurent.ledger.errors import DuplicateTransfer, InsufficientBalance
from gpurent.ledger.models import LedgerAccount, LedgerEntry, LedgerTransfer
from gpurent.ledger.selectors import account_balance, balance_for, ledger_check, ledger_lines_for
from gpurent.ledger.services import (
    EXTERNAL_CRYPTO,
    REVENUE_RENTALS,
    customer_account,
    system_account,
    transfer_post,
    transfer_reverse,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def customer(django_user_model):
    return django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C", last_name="U")


def deposit(customer, cents, ref="deposit:D-1"):
    return transfer_post(
        reference=ref, debit=system_account(EXTERNAL_CRYPTO), credit=customer_account(customer), amount=Usd(cents)
    )


def test_transfer_post_credit_then_debit_leaves_the_difference(customer):
    deposit(customer, 10_000)
    transfer_post(
        reference="order:R-1",
        debit=customer_account(customer),
        credit=system_account(REVENUE_RENTALS),
        amount=Usd(6_000),
    )
    assert balance_for(customer) == Usd(4_000)
    lines = list(ledger_lines_for(customer))
    assert [
        (line.transfer.reference, line.direction, line.amount_cents, line.balance_after_cents) for line in lines
    ] == [
        ("deposit:D-1", "credit", 10_000, 10_000),
        ("order:R-1", "debit", 6_000, 4_000),
    ]
    assert account_balance(EXTERNAL_CRYPTO) == Usd(-10_000)  # the sum of its entries: it is never locked
    assert system_account(EXTERNAL_CRYPTO).balance_cents == 0
    assert ledger_check() == []


def test_transfer_post_refuses_to_take_a_customer_below_zero(customer):
    deposit(customer, 5_000)
    with pytest.raises(InsufficientBalance) as raised:
        transfer_post(
            reference="order:R-1",
            debit=customer_account(customer),
            credit=system_account(REVENUE_RENTALS),
            amount=Usd(5_001),
        )
    assert raised.value.code == "insufficient_balance"
    assert balance_for(customer) == Usd(5_000)
    assert not LedgerTransfer.objects.filter(reference="order:R-1").exists()


def test_transfer_post_same_reference_twice_moves_money_once(customer):
    deposit(customer, 5_000)
    with pytest.raises(DuplicateTransfer):
        deposit(customer, 5_000)
    assert balance_for(customer) == Usd(5_000)
    assert ledger_check() == []


@pytest.mark.parametrize("cents", [0, -1])
def test_transfer_post_refuses_non_positive_amounts(customer, cents):
    with pytest.raises(ValueError, match="positive"):
        deposit(customer, cents)


def test_transfer_reverse_moves_the_amount_back_once(customer):
    transfer = deposit(customer, 7_000)
    reversal = transfer_reverse(transfer=transfer)
    assert reversal.reference == f"reversal:{transfer.pk}"
    assert balance_for(customer) == Usd(0)
    with pytest.raises(DuplicateTransfer):
        transfer_reverse(transfer=transfer)
    assert ledger_check() == []


def test_balance_for_a_customer_without_ledger_account_is_zero(customer):
    assert balance_for(customer) == Usd(0)


def test_ledger_rows_refuse_updates_and_deletes_in_the_model_layer(customer):
    transfer = deposit(customer, 1_000)
    entry = LedgerEntry.objects.earliest("id")
    for attempt in (
        lambda: transfer.save(),
        lambda: transfer.delete(),
        lambda: entry.save(),
        lambda: entry.delete(),
        lambda: LedgerEntry.objects.update(amount_cents=1),
        lambda: LedgerTransfer.objects.all().delete(),
    ):
        with pytest.raises(TypeError, match="append-only"):
            attempt()
    assert ledger_check() == []


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the trigger exists on PostgreSQL")
def test_ledger_rows_refuse_raw_sql_updates_on_postgresql(customer):
    deposit(customer, 1_000)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE ledger_ledgerentry SET amount_cents = 1")
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM ledger_ledgertransfer")


def test_customer_balance_constraint_backs_the_service(customer):
    account = customer_account(customer)
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerAccount.objects.filter(pk=account.pk).update(balance_cents=-1)


def test_ledger_check_finds_a_drifted_cache(customer):
    deposit(customer, 1_000)
    LedgerAccount.objects.filter(code=f"customer:{customer.pk}").update(balance_cents=999)
    assert any("cached 999 != entries 1000" in problem for problem in ledger_check())
