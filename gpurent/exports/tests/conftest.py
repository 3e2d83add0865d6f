"""Fixtures of the prepared downloads' tests: a customer with a balance history, and a small part size so that a
short file spans several parts."""

from __future__ import annotations

import pytest

from gpurent.accounts.services import api_token_create
from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post

PASSWORD = "a long enough passphrase"


def ledger_lines(customer, count: int) -> None:
    for number in range(count):
        transfer_post(
            reference=f"deposit:D-{number}",
            debit=system_account(EXTERNAL_CRYPTO),
            credit=customer_account(customer),
            amount=Usd(100 + number),
        )


@pytest.fixture
def customer(django_user_model):
    return django_user_model.objects.create_user("x@example.com", PASSWORD, first_name="Ex", last_name="Port")


@pytest.fixture
def stranger(django_user_model):
    return django_user_model.objects.create_user("y@example.com", PASSWORD, first_name="Str", last_name="Anger")


@pytest.fixture
def auth(customer) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=customer, name='t')[1]}"}


@pytest.fixture
def small_parts(monkeypatch) -> int:
    """Parts of 100 bytes, and a statement answered at once only up to 3 lines."""
    monkeypatch.setattr("gpurent.exports.writing.PART_BYTES", 100)
    monkeypatch.setattr("gpurent.payments.balance.statement.BALANCE_CSV_DIRECT_MAX", 3)
    return 100
