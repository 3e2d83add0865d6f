"""The payments desk's list shows each intent in the state its detail page shows (QA walk: the list said
"Awaiting payment" for a reported payment while its detail said "Payment reported")."""

import re

import pytest
from django.contrib.auth.models import Group

from gpurent.orders.services import Contact, order_place
from gpurent.payments.intents.lifecycle import intent_issue_for_order, intent_report

pytestmark = pytest.mark.django_db

DESK = "/backoffice/backoffice/paymentsdesk/"


def test_the_list_and_the_detail_say_payment_reported(client, django_user_model, gpu, payment_setup):
    customer = django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C", last_name="U")
    contact = Contact("C", "U", "c@x.io")
    orders = [
        order_place(owner=customer, gpu_slug=gpu.slug, term_days=7, lots=1, environment="ubuntu", contact=contact)
        for _ in range(2)
    ]
    reported = intent_report(
        intent=intent_issue_for_order(order=orders[0], owner=customer, asset="USDT", network="tron")
    )
    intent_issue_for_order(order=orders[1], owner=customer, asset="USDT", network="tron")
    operator = django_user_model.objects.create_user(
        "p@shop.example", "passphrase 12", first_name="O", last_name="P", is_staff=True
    )
    operator.groups.set(Group.objects.filter(name="payments"))
    client.force_login(operator)
    listing = client.get(DESK).content.decode()
    rows = {
        ref: row for row in re.findall(r"<tr.*?</tr>", listing, re.S) for ref in [o.ref for o in orders] if ref in row
    }
    assert "Payment reported" in rows[orders[0].ref]
    assert "Awaiting payment" not in rows[orders[0].ref]
    assert "Awaiting payment" in rows[orders[1].ref]
    assert "Payment reported" in client.get(f"{DESK}{reported.pk}/change/").content.decode()
