"""The desks put the rows that need action first, count only those by default, show time zones, and the
verify form says what is missing instead of failing."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.models import Order
from gpurent.orders.provisioning import AccessDetails, provision_ready, provision_start
from gpurent.orders.services import Contact, order_place
from gpurent.payments.intents.lifecycle import intent_issue_for_order, intent_report
from gpurent.payments.models import IntentStatus, PaymentIntent
from gpurent.payments.services import order_pay_from_balance

pytestmark = pytest.mark.django_db

PAYMENTS_DESK = "/backoffice/backoffice/paymentsdesk/"
PROVISIONING_DESK = "/backoffice/backoffice/provisioningdesk/"


@pytest.fixture
def operator(django_user_model):
    user = django_user_model.objects.create_user(
        "op@shop.example", "passphrase 12", first_name="O", last_name="P", is_staff=True
    )
    user.groups.set(Group.objects.filter(name__in=["payments", "provisioning"]))
    return user


@pytest.fixture
def customer(django_user_model):
    user = django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C", last_name="U")
    transfer_post(
        reference="deposit:T",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(user),
        amount=Usd(1_000_000),
    )
    return user


@pytest.fixture
def payer(django_user_model):
    return django_user_model.objects.create_user("p@example.com", "passphrase 12", first_name="P", last_name="U")


def place(customer, gpu):
    return order_place(
        owner=customer, gpu_slug=gpu.slug, term_days=3, lots=1, environment="ubuntu", contact=Contact("C", "U", "c@x")
    )


def test_payments_desk_lists_reported_then_review_then_open_and_counts_only_those(
    client, operator, payer, gpu, payment_setup
):
    customer = payer
    # Created in the opposite order of the desk's, so the model's newest-first ordering would invert it.
    reported = intent_issue_for_order(order=place(customer, gpu), owner=customer, asset="USDT", network="tron")
    intent_report(intent=reported)
    review = intent_issue_for_order(order=place(customer, gpu), owner=customer, asset="LTC", network="litecoin")
    PaymentIntent.objects.filter(pk=review.pk).update(status=IntentStatus.REVIEW)
    expired = intent_issue_for_order(order=place(customer, gpu), owner=customer, asset="SOL", network="solana")
    PaymentIntent.objects.filter(pk=expired.pk).update(status=IntentStatus.EXPIRED)
    intent_issue_for_order(order=place(customer, gpu), owner=customer, asset="BTC", network="bitcoin")
    client.force_login(operator)
    page = client.get(PAYMENTS_DESK).content.decode()
    assert page.index("USDT on Tron") < page.index("LTC on Litecoin") < page.index("BTC on Bitcoin")
    assert "SOL on Solana" not in page  # expired: nothing to do, not counted
    assert "3 payments desk" in page or "3 payments to verify" in page
    everything = client.get(PAYMENTS_DESK, {"queue": "all"}).content.decode()
    assert "SOL on Solana" in everything
    assert "UTC" in page  # reported and expiry times carry their zone


def test_provisioning_desk_lists_paid_not_started_first(client, operator, customer, gpu):
    started = order_pay_from_balance(order=place(customer, gpu), owner=customer)
    running = provision_ready(
        order=provision_start(order=started, actor=None),
        actor=None,
        access=AccessDetails("h.example", 22, "ubuntu", one_time_secret="pw"),
    )
    waiting = order_pay_from_balance(order=place(customer, gpu), owner=customer)
    # The older payment is the one that has waited longest.
    Order.objects.filter(pk=waiting.pk).update(paid_at=timezone.now() - timedelta(hours=1))
    newer = order_pay_from_balance(order=place(customer, gpu), owner=customer)
    client.force_login(operator)
    page = client.get(PROVISIONING_DESK).content.decode()
    assert page.index(waiting.ref) < page.index(newer.ref)
    assert running.ref not in page
    assert running.ref in client.get(PROVISIONING_DESK, {"queue": "all"}).content.decode()


@pytest.mark.parametrize(
    ("post", "message"),
    [
        ({"txid": "tron-tx", "received": ""}, "Enter the amount received, in USDT."),
        ({"txid": "", "received": "205"}, "Enter the transaction id that paid this intent."),
        ({"txid": "tron-tx", "received": "2o5"}, "Enter a plain amount of USDT with at most 6 decimals"),
    ],
)
def test_verify_form_explains_a_missing_or_bad_amount(client, operator, payer, gpu, payment_setup, post, message):
    customer = payer
    intent = intent_issue_for_order(order=place(customer, gpu), owner=customer, asset="USDT", network="tron")
    client.force_login(operator)
    response = client.post(f"{PAYMENTS_DESK}{intent.pk}/change/", {"action": "confirm", "reason": "", **post})
    assert response.status_code == 200
    page = response.content.decode()
    assert message in page
    assert "admin/css/forms.css" in page  # styled like the rest of the back office
    assert PaymentIntent.objects.get(pk=intent.pk).status == "awaiting_payment"
