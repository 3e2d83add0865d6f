"""A reported payment an operator rejects (QA walk): the customer is told why by e-mail (through the outbox, in
the account's language), the order's history says it, the cancel box no longer speaks of money received, and the
desk refuses a rejection without a reason."""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import translation

from gpurent.core.models import OutboundEmail
from gpurent.orders.history_notes import note_text
from gpurent.payments.intents.lifecycle import (
    intent_issue_for_order,
    intent_report,
    order_cancel_warning_for_payments,
)
from gpurent.payments.models import IntentStatus, PaymentIntent, PaymentSource
from gpurent.payments.received.receive import payment_receive
from gpurent.payments.received.verification import intent_reject

pytestmark = pytest.mark.django_db

DESK = "/backoffice/backoffice/paymentsdesk/"
REASON = "No transfer reached this address."


@pytest.fixture
def operator(django_user_model):
    user = django_user_model.objects.create_user(
        "payments@shop.example", "passphrase 12", first_name="O", last_name="P", is_staff=True
    )
    user.groups.set(Group.objects.filter(name="payments"))
    return user


@pytest.fixture
def reported(order, customer):
    customer.language = "tr"
    customer.save(update_fields=["language"])
    return intent_report(intent=intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron"))


def test_the_desk_rejection_tells_the_customer_and_the_order_page_agrees(
    client, operator, customer, order, reported, django_capture_on_commit_callbacks
):
    assert order_cancel_warning_for_payments(order)  # reported: the box warns
    client.force_login(operator)
    body = {"action": "reject", "txid": "", "received": "", "reason": REASON, "idempotency_key": "r-1"}
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(f"{DESK}{reported.pk}/change/", body).status_code == 302
    assert PaymentIntent.objects.get(pk=reported.pk).status == IntentStatus.REJECTED
    email = OutboundEmail.objects.get(key=f"intent_rejected:{reported.pk}")
    assert (email.to, email.language) == (customer.email, "tr")
    email.refresh_from_db()  # rendered and sent by the worker after commit
    assert REASON in email.text
    assert reverse("orders:rental", args=[order.ref]) in email.text
    assert email.sent_at is not None
    assert order_cancel_warning_for_payments(order) == ""  # nothing was received
    client.force_login(customer)
    page = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    assert 'data-testid="cancel-warning"' not in page
    history = page[page.index('id="history-heading"') :]
    with translation.override("tr"):
        assert note_text(f"payment rejected: {REASON}") in history  # after the "payment reported" line


def test_a_rejection_of_an_intent_nobody_reported_writes_no_history_and_no_email(order, customer):
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    intent_reject(intent_id=intent.pk, reason="BTCPay: invoice invalid")
    assert not OutboundEmail.objects.filter(key=f"intent_rejected:{intent.pk}").exists()
    assert not order.status_changes.filter(reason__startswith="payment rejected").exists()


def test_rejecting_twice_tells_the_customer_once(order, reported):
    intent_reject(intent_id=reported.pk, reason=REASON)
    intent_reject(intent_id=reported.pk, reason="again")
    assert OutboundEmail.objects.filter(key=f"intent_rejected:{reported.pk}").count() == 1
    assert order.status_changes.filter(reason__startswith="payment rejected").count() == 1


def test_money_that_arrives_after_the_rejection_still_warns(order, reported):
    intent_reject(intent_id=reported.pk, reason=REASON)
    payment_receive(
        intent_id=reported.pk, txid="late-tx", amount_units=reported.amount_units, source=PaymentSource.OPERATOR
    )
    assert order_cancel_warning_for_payments(order)


def test_the_desk_refuses_a_rejection_without_a_reason(client, operator, reported):
    client.force_login(operator)
    body = {"action": "reject", "txid": "", "received": "", "reason": "  ", "idempotency_key": "r-2"}
    response = client.post(f"{DESK}{reported.pk}/change/", body)
    assert response.status_code != 302
    assert "Say why: the customer reads it." in response.content.decode()
    assert PaymentIntent.objects.get(pk=reported.pk).status == IntentStatus.AWAITING_PAYMENT
    assert not OutboundEmail.objects.filter(key=f"intent_rejected:{reported.pk}").exists()
