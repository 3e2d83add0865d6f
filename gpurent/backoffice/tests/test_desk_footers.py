"""The count under each desk's list names what the list shows under each queue (outside QA walk of the back office,
defect 27: "4 withdrawals to send" under "All", all of them sent or rejected; "7 payments to verify" under "All",
3 of them confirmed; "1 order to provision" under "Access to remove")."""

import re

import pytest
from django.contrib.auth.models import Group

from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.payments.payouts import payout_reject, payout_request

pytestmark = pytest.mark.django_db

DESKS = "/backoffice/backoffice/"


def footer(client, path: str) -> str:
    html = client.get(DESKS + path).content.decode()
    paginator = re.search(r'<p class="paginator">(.*?)</p>', html, re.S)
    assert paginator is not None
    return " ".join(paginator.group(1).split())


@pytest.fixture
def operator(client, django_user_model):
    user = django_user_model.objects.create_user(
        "all-desks@shop.example", "passphrase 12", first_name="O", last_name="P", is_staff=True
    )
    user.groups.set(Group.objects.filter(name__in=["payments", "payouts", "provisioning"]))
    client.force_login(user)
    return user


def test_the_payouts_desk_counts_withdrawals_to_send_only_in_its_queue(
    client, operator, django_user_model, payment_setup
):
    customer = django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C", last_name="U")
    transfer_post(
        reference="deposit:D-FOOT",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(9_000),
    )
    address = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
    for _ in range(2):
        payout = payout_request(owner=customer, asset="USDT", network="tron", address=address, amount=Usd(3_000))
    payout_reject(payout_id=payout.pk, reason="no", actor=operator)
    assert footer(client, "payoutsdesk/") == "1 withdrawal to send"
    assert footer(client, "payoutsdesk/?queue=all") == "2 withdrawals"
    assert footer(client, "payoutsdesk/?queue=all&status=rejected") == "1 withdrawal"
    assert footer(client, "payoutsdesk/?queue=action&status=rejected") == "0 withdrawals to send"


def test_the_payments_desk_counts_payments_to_verify_only_in_its_queue(client, operator):
    assert footer(client, "paymentsdesk/") == "0 payments to verify"
    assert footer(client, "paymentsdesk/?queue=all") == "0 payments"


def test_the_provisioning_desk_names_each_queue_in_its_count(client, operator):
    assert footer(client, "provisioningdesk/") == "0 orders to provision"
    assert footer(client, "provisioningdesk/?queue=access") == "0 orders with access to remove"
    assert footer(client, "provisioningdesk/?queue=all") == "0 orders"
