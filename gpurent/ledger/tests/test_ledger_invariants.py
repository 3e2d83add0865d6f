"""`ledger_check` against rows the services never write: each broken invariant is named, exactly once.

The rows are inserted with the ORM (inserts are allowed on an append-only table; only updates and deletes are
refused), as a bug or a hand-made SQL fix could have written them.
"""

import io

import pytest
from django.core.management import CommandError, call_command
from django.template import Context, Template

from gpurent.core.money import Usd
from gpurent.ledger.models import Direction, LedgerEntry, LedgerTransfer
from gpurent.ledger.references import reference_parts
from gpurent.ledger.selectors import ledger_check
from gpurent.ledger.services import (
    EXTERNAL_CRYPTO,
    REVENUE_RENTALS,
    customer_account,
    system_account,
    transfer_post,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def customer(django_user_model):
    return django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C", last_name="U")


@pytest.fixture
def accounts(customer):
    return customer_account(customer), system_account(EXTERNAL_CRYPTO), system_account(REVENUE_RENTALS)


def transfer(reference, cents, debit, credit):
    return LedgerTransfer.objects.create(
        reference=reference, amount_cents=cents, debit_account=debit, credit_account=credit
    )


def entry(transfer, account, direction, cents, balance_after=None):
    return LedgerEntry.objects.create(
        transfer=transfer, account=account, direction=direction, amount_cents=cents, balance_after_cents=balance_after
    )


def test_ledger_check_names_a_transfer_with_one_side_only(accounts):
    customer, external, _revenue = accounts
    half = transfer("deposit:D-HALF", 500, external, customer)
    entry(half, customer, Direction.CREDIT, 500, balance_after=500)
    assert ledger_check() == [
        "debits 0 != credits 500",
        "transfer deposit:D-HALF: needs exactly one debit and one credit entry",
        f"{customer.code}: cached 0 != entries 500",
    ]


def test_ledger_check_names_a_system_account_with_a_running_balance(accounts):
    customer, external, _revenue = accounts
    moved = transfer("deposit:D-SYS", 700, external, customer)
    wrong = entry(moved, external, Direction.DEBIT, 700, balance_after=-700)
    entry(moved, customer, Direction.CREDIT, 700, balance_after=700)
    assert ledger_check() == [
        f"entry {wrong.pk}: a system account keeps no running balance",
        f"{customer.code}: cached 0 != entries 700",
    ]


def test_ledger_check_names_a_balance_after_that_does_not_replay(accounts):
    customer, external, _revenue = accounts
    transfer_post(reference="deposit:D-1", debit=external, credit=customer, amount=Usd(1_000))
    moved = transfer("deposit:D-2", 300, external, customer)
    entry(moved, external, Direction.DEBIT, 300)
    wrong = entry(moved, customer, Direction.CREDIT, 300, balance_after=1_200)
    assert ledger_check() == [
        f"entry {wrong.pk}: balance after 1200 != replay 1300",
        f"{customer.code}: cached 1000 != entries 1300",
    ]


def test_ledger_check_names_entries_whose_amounts_differ_from_their_transfer(accounts):
    _customer, external, revenue = accounts
    moved = transfer("order:R-AMT", 500, external, revenue)
    entry(moved, external, Direction.DEBIT, 400)
    entry(moved, revenue, Direction.CREDIT, 400)
    assert ledger_check() == ["transfer order:R-AMT: entry amounts differ from the transfer"]


def test_ledger_check_names_entries_on_other_accounts_than_their_transfer(accounts):
    _customer, external, revenue = accounts
    moved = transfer("order:R-ACC", 500, external, revenue)
    entry(moved, revenue, Direction.DEBIT, 500)
    entry(moved, external, Direction.CREDIT, 500)
    assert ledger_check() == ["transfer order:R-ACC: entries are on other accounts"]


def test_ledger_check_names_a_customer_balance_that_went_below_zero(accounts):
    customer, _external, revenue = accounts
    moved = transfer("order:R-NEG", 300, customer, revenue)
    below = entry(moved, customer, Direction.DEBIT, 300, balance_after=-300)
    entry(moved, revenue, Direction.CREDIT, 300)
    assert ledger_check() == [
        f"{customer.code}: cached 0 != entries -300",
        f"entry {below.pk}: a customer balance went below zero",
    ]


def test_ledger_check_command_prints_each_problem_and_fails(accounts):
    _customer, external, revenue = accounts
    moved = transfer("order:R-CMD", 500, external, revenue)
    entry(moved, external, Direction.DEBIT, 400)
    entry(moved, revenue, Direction.CREDIT, 400)
    err = io.StringIO()
    with pytest.raises(CommandError, match=r"^ledger_check: 1 problem\(s\)$"):
        call_command("ledger_check", stdout=io.StringIO(), stderr=err)
    assert err.getvalue() == "transfer order:R-CMD: entry amounts differ from the transfer\n"


def test_transfer_post_refuses_one_account_on_both_sides(accounts):
    customer, _external, _revenue = accounts
    with pytest.raises(ValueError, match="a transfer needs two accounts"):
        transfer_post(reference="deposit:D-SELF", debit=customer, credit=customer, amount=Usd(100))
    assert not LedgerTransfer.objects.exists()


def test_ledger_rows_read_as_their_code_reference_and_side(accounts):
    customer, external, _revenue = accounts
    moved = transfer_post(reference="deposit:D-STR", debit=external, credit=customer, amount=Usd(250))
    credit = moved.entries.get(direction=Direction.CREDIT)
    assert (str(customer), str(moved), str(credit)) == (
        customer.code,
        "deposit:D-STR",
        f"{customer.pk} credit 250",
    )


@pytest.mark.parametrize("reference", ["bonus:B-1", "deposit:", "no-colon"])
def test_unknown_or_empty_references_are_shown_as_stored(reference):
    assert reference_parts(reference) == ("", reference)
    html = Template("{% load ledger %}{{ ref|ledger_reference }}").render(Context({"ref": reference}))
    assert html == f'<span class="ledger-ref" data-reference="{reference}"><code>{reference}</code></span>'
