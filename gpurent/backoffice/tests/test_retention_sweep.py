"""The sweep applies the retention periods (decision 0165) and leaves the commercial records alone."""

import pytest
from django.utils import timezone

from gpurent.backoffice.management.commands.sweep import sweep_once
from gpurent.ledger.models import LedgerTransfer
from gpurent.orders.models import Order
from gpurent.orders.services import Contact, order_place
from gpurent.support.tests.test_retention import request_aged

pytestmark = pytest.mark.django_db


@pytest.fixture
def customer(django_user_model):
    return django_user_model.objects.create_user("ada@example.com", "long enough passphrase", first_name="Ada")


@pytest.fixture
def order(customer, gpu):
    contact = Contact("Ada", "Lovelace", "ada@example.com")
    return order_place(owner=customer, gpu_slug=gpu.slug, term_days=7, lots=1, environment="pytorch", contact=contact)


def test_the_sweep_runs_the_retention_and_keeps_money_records(customer, order, settings):
    settings.RETENTION_SUPPORT_DAYS = 10
    request_aged(customer, order, days_ago=11)
    transfers = LedgerTransfer.objects.count()
    counts = sweep_once(now=timezone.now())
    assert counts["support requests past retention deleted"] == 1
    assert "log-in records past retention deleted" in counts
    assert Order.objects.filter(pk=order.pk).exists()
    assert LedgerTransfer.objects.count() == transfers
