"""`manage.py ledger_check`: exit 0 with the counts on a sound ledger, 1 with each violation on a broken one."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from gpurent.core.money import Usd
from gpurent.ledger.models import LedgerAccount
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def customer(django_user_model):
    user = django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C", last_name="U")
    transfer_post(
        reference="deposit:D-1", debit=system_account(EXTERNAL_CRYPTO), credit=customer_account(user), amount=Usd(1_000)
    )
    return user


def test_ledger_check_command_on_a_sound_ledger_prints_the_counts(customer):
    out = io.StringIO()
    call_command("ledger_check", stdout=out)
    assert out.getvalue() == "ledger_check: OK (2 accounts, 1 transfers, 2 entries)\n"


def test_ledger_check_command_on_a_drifted_balance_fails_naming_it(customer):
    LedgerAccount.objects.filter(code=f"customer:{customer.pk}").update(balance_cents=999)
    err = io.StringIO()
    with pytest.raises(CommandError, match=r"^ledger_check: 1 problem\(s\)$"):
        call_command("ledger_check", stdout=io.StringIO(), stderr=err)
    assert err.getvalue() == f"customer:{customer.pk}: cached 999 != entries 1000\n"
