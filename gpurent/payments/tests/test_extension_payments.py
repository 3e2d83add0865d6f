"""A crypto payment for a rental's extension: it moves the term when confirmed during the term; confirmed
after the end, it is credited to the balance and the extension stays unpaid (nothing is lost)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from gpurent.core.money import Usd
from gpurent.ledger.selectors import balance_for
from gpurent.orders.extensions import order_extension_place
from gpurent.orders.models import Order
from gpurent.orders.provisioning import AccessDetails, provision_ready, provision_start
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.received.verification import intent_confirm

pytestmark = pytest.mark.django_db


@pytest.fixture
def extension(order, customer):
    from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
    from gpurent.payments.services import order_pay_from_balance

    transfer_post(
        reference="deposit:T9",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=order.total,
    )
    rental = provision_start(order=order_pay_from_balance(order=order, owner=customer), actor=None)
    rental = provision_ready(order=rental, actor=None, access=AccessDetails("h", 22, "u", one_time_secret="pw"))
    return order_extension_place(rental=rental, owner=customer, term_days=3)


def test_confirmed_during_the_term_moves_the_end(extension, customer):
    end = extension.extends.term_ends_at
    intent = intent_issue_for_order(order=extension, owner=customer, asset="USDT", network="tron")
    intent_confirm(intent_id=intent.pk, txid="tx-ext-1", received_units=intent.amount_units)
    assert Order.objects.get(pk=extension.pk).payment_status == "paid"
    assert Order.objects.get(pk=extension.extends_id).term_ends_at == end + timedelta(days=3)


def test_confirmed_after_the_end_is_credited_and_pays_nothing(extension, customer):
    intent = intent_issue_for_order(order=extension, owner=customer, asset="USDT", network="tron")
    Order.objects.filter(pk=extension.extends_id).update(term_ends_at=timezone.now() - timedelta(seconds=1))
    intent_confirm(intent_id=intent.pk, txid="tx-ext-2", received_units=intent.amount_units)
    assert Order.objects.get(pk=extension.pk).payment_status == "awaiting_payment"
    assert balance_for(customer) == Usd(extension.total_cents)  # the payment waits in the balance
