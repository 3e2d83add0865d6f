"""A customer with a balance and a running rental of theirs: what the extension tests start from."""

import pytest

from conftest import make_running_rental
from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post


@pytest.fixture
def customer(django_user_model):
    user = django_user_model.objects.create_user("r@example.com", "plum orbit ferry", first_name="R", last_name="E")
    transfer_post(
        reference="deposit:T1",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(user),
        amount=Usd(500_000),
    )
    return user


@pytest.fixture
def rental(customer, gpu):
    """2 lots of A100 for 3 days, paid and ready: 6 of 8 lots left in stock."""
    return make_running_rental(customer, gpu, lots=2)
