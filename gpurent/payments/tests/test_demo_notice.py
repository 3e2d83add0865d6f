"""The demo shop's notice on payment instructions says how the address was made (issue 32): the demo's own
placeholders are unspendable, but an address derived from the operator's registered key, or one an operator
entered, is real and must never be called a placeholder."""

import pytest
from django.urls import reverse

from gpurent.payments.demo import demo_addresses, load_demo_payments
from gpurent.payments.intents.allocation import extended_key_register
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import ReceivingAddress
from gpurent.payments.tests.test_derivation import ETH_ACCOUNT_XPUB, ETH_FIRST

pytestmark = pytest.mark.django_db

PLACEHOLDER = "Demo shop: this address is a placeholder nobody can spend from. Do not send real funds."
DERIVED = (
    "Demo shop: this address is derived from the shop operator's own wallet key. It is not a placeholder: "
    "a payment sent to it is real."
)
REAL = "Demo shop: this is a real address, not a placeholder: a payment sent to it is real."


@pytest.fixture
def demo_shop(settings):
    settings.PAYMENTS_DEMO_NOTICE = True


def _page(client, customer, order):
    client.force_login(customer)
    return client.get(reverse("orders:rental", args=[order.ref])).content.decode()


def test_an_address_derived_from_the_operators_key_is_called_real_not_a_placeholder(client, customer, order, demo_shop):
    extended_key_register(network="ethereum", key=ETH_ACCOUNT_XPUB, label="operator's wallet")
    intent = intent_issue_for_order(order=order, owner=customer, asset="ETH", network="ethereum")
    assert intent.address == ETH_FIRST
    page = _page(client, customer, order)
    assert PLACEHOLDER not in page
    assert DERIVED in page


def test_the_demo_placeholder_is_still_called_unspendable(client, customer, order, demo_shop):
    ReceivingAddress.objects.filter(network="ethereum").delete()
    load_demo_payments()
    intent = intent_issue_for_order(order=order, owner=customer, asset="ETH", network="ethereum")
    assert intent.address == demo_addresses()["ethereum"]
    page = _page(client, customer, order)
    assert PLACEHOLDER in page
    assert DERIVED not in page


def test_an_address_the_operator_entered_is_called_real(client, customer, order, demo_shop):
    intent_issue_for_order(order=order, owner=customer, asset="ETH", network="ethereum")  # the fixture's address
    page = _page(client, customer, order)
    assert REAL in page
    assert PLACEHOLDER not in page


def test_no_notice_outside_the_demo_shop(client, customer, order):
    extended_key_register(network="ethereum", key=ETH_ACCOUNT_XPUB)
    intent_issue_for_order(order=order, owner=customer, asset="ETH", network="ethereum")
    assert 'data-testid="demo-notice"' not in _page(client, customer, order)
