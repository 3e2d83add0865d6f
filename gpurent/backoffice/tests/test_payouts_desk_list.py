"""What an operator looks for on a desk's card (outside QA walk of the back office, defects 25 and 26): how long a
withdrawal has waited, and its address by its two ends. The layout itself, and each card's headings
(backoffice/desk_cards.js), are checked in a browser: tests/browser/test_desks_fit.py."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.payments.models import Payout
from gpurent.payments.payouts import payout_request


@pytest.mark.django_db
def test_the_payouts_desk_says_how_long_a_withdrawal_waits(client, django_user_model, payment_setup, settings):
    settings.PAYOUTS_MIN_CENTS, settings.PAYOUTS_FEE_CENTS = 2_000, 100
    customer = django_user_model.objects.create_user("w@example.com", "passphrase 12", first_name="W", last_name="A")
    transfer_post(
        reference="deposit:D-WAIT",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(9_000),
    )
    payout = payout_request(
        owner=customer, asset="USDT", network="tron", address="TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", amount=Usd(5_000)
    )
    Payout.objects.filter(pk=payout.pk).update(created_at=timezone.now() - timedelta(hours=2, minutes=5))
    operator = django_user_model.objects.create_user(
        "payouts@shop.example", "passphrase 12", first_name="O", last_name="P", is_staff=True
    )
    operator.groups.set(Group.objects.filter(name="payouts"))
    client.force_login(operator)
    html = client.get("/backoffice/backoffice/payoutsdesk/").content.decode()
    assert '<span class="age">waiting 2 h 05 min</span>' in html
    address = '<span title="TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t">TR7NHqje…gjLj6t</span>'
    assert f'<td class="field-short_address">{address}</td>' in html
