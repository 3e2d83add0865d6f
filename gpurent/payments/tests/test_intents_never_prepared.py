"""Instructions the payment processor never prepared (decision 0336): an intent routed through BTCPay Server
whose invoice could not be made is closed with no address. It does not count towards the order's or the
top-up's `PAYMENTS_MAX_INTENTS` (the customer did not cause it), but every intent counts towards
`PAYMENTS_MAX_INTENT_ROWS`, so an outage cannot grow the list for ever."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from gpurent.accounts.services import api_token_create
from gpurent.core.money import Usd
from gpurent.payments.errors import IntentLimitReached
from gpurent.payments.intents.lifecycle import intent_issue_for_deposit, intent_issue_for_order
from gpurent.payments.models import PaymentIntent
from gpurent.payments.services import deposit_create

from .btcpay_fake import API_KEY, STORE_ID, FakeGreenfield

ROWS_HINT = "We could not prepare payment instructions for this"


def issue_for(target, customer):
    """Issue one intent now for the order or the top-up `target`, then let its quote expire, so that only the
    limits in all can refuse the next one."""

    def issue():
        if hasattr(target, "gpu_id"):
            intent = intent_issue_for_order(order=target, owner=customer, asset="USDT", network="tron")
        else:
            intent = intent_issue_for_deposit(deposit=target, owner=customer, asset="USDT", network="tron")
        PaymentIntent.objects.filter(pk=intent.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
        return intent

    return issue


def failed_attempts(issue, count, status="closed"):
    """`count` attempts that the processor failed, one after the other (each stops counting before the next)."""
    for _ in range(count):
        never_prepared([issue()], status=status)


def never_prepared(intents, status="closed"):
    """These intents become what a failed BTCPay invoice call leaves: routed through the processor, no invoice,
    no address, closed."""
    PaymentIntent.objects.filter(pk__in=[intent.pk for intent in intents]).update(
        processor="btcpay", processor_invoice_id="", address="", status=status
    )


@pytest.fixture(params=["order", "top-up"])
def target(request, customer, order):
    return order if request.param == "order" else deposit_create(owner=customer, amount=Usd(2_500))


@pytest.mark.django_db
def test_settings_default_to_twenty_intents_of_any_kind(settings):
    assert settings.PAYMENTS_MAX_INTENT_ROWS == 20


@pytest.mark.django_db
def test_instructions_never_prepared_do_not_count_towards_the_ten(target, customer):
    issue = issue_for(target, customer)
    failed_attempts(issue, 6)
    for _ in range(10):
        issue()
    with pytest.raises(IntentLimitReached) as raised:
        issue()
    assert ROWS_HINT not in raised.value.message  # the limit of 0310, with its own way out
    assert PaymentIntent.objects.count() == 16


@pytest.mark.django_db
@pytest.mark.parametrize("status", ["closed", "expired", "awaiting_payment"])
def test_every_intent_counts_towards_the_cap_of_rows(target, customer, status):
    issue = issue_for(target, customer)
    # Closed by the failed call, or interrupted before it and expired since (its status may not have moved yet).
    failed_attempts(issue, 19, status=status)
    issue()
    with pytest.raises(IntentLimitReached) as raised:
        issue()
    assert raised.value.code == "intent_limit_reached"
    assert ROWS_HINT in raised.value.message
    hint = "top up your balance and pay the order from it" if hasattr(target, "gpu_id") else "start a new top-up"
    assert hint in raised.value.message
    assert PaymentIntent.objects.count() == 20


@pytest.mark.django_db
def test_one_still_being_prepared_counts_until_its_quote_expires(settings, target, customer):
    settings.PAYMENTS_MAX_INTENTS = 1
    if hasattr(target, "gpu_id"):
        intent = intent_issue_for_order(order=target, owner=customer, asset="USDT", network="tron")
    else:
        intent = intent_issue_for_deposit(deposit=target, owner=customer, asset="USDT", network="tron")
    never_prepared([intent], status="awaiting_payment")  # open, its invoice not made yet
    with pytest.raises(IntentLimitReached):
        issue_for(target, customer)()
    PaymentIntent.objects.filter(pk=intent.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    issue_for(target, customer)()


@pytest.mark.django_db
def test_an_intent_with_an_invoice_counts_whatever_its_processor(target, customer):
    issue = issue_for(target, customer)
    for number in range(10):
        # Invoiced, then closed (its order or top-up was paid another way): it was shown, so it counts.
        PaymentIntent.objects.filter(pk=issue().pk).update(
            processor="btcpay", processor_invoice_id=f"inv-{number}", status="closed"
        )
    with pytest.raises(IntentLimitReached):
        issue()


@pytest.mark.django_db
def test_the_order_page_shows_the_cap_of_rows_instead_of_the_button(client, customer, order):
    issue = issue_for(order, customer)
    failed_attempts(issue, 19)
    client.force_login(customer)
    url = reverse("orders:rental", args=[order.ref])
    assert "Get new instructions" in client.get(url).content.decode()
    issue()
    page = client.get(url).content.decode()
    assert "Get new instructions" not in page
    assert ROWS_HINT in page
    assert page.count('data-testid="intent"') == 20


@pytest.fixture
def btcpay_down(settings):
    fake = FakeGreenfield(invoice_status=503).start()
    settings.BTCPAY_URL = fake.url + "/"
    settings.BTCPAY_STORE_ID = STORE_ID
    settings.BTCPAY_API_KEY = API_KEY
    settings.BTCPAY_NETWORKS = ["litecoin"]
    yield fake
    fake.stop()


@pytest.mark.django_db(transaction=True)  # the invoice call runs after the intent's commit, as in production
def test_an_outage_does_not_use_up_the_orders_instructions(settings, client, btcpay_down, customer, order):
    settings.PAYMENTS_MAX_INTENTS = 2
    auth = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=customer, name='t')[1]}"}

    def post(pair, key):
        url = f"/api/v1/orders/{order.ref}/intents"
        body = {"asset": pair[0], "network": pair[1]}
        return client.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key, **auth)

    failed = [post(("LTC", "litecoin"), f"ltc-{n}") for n in range(5)]
    assert {answer.status_code for answer in failed} == {503}
    assert set(PaymentIntent.objects.values_list("status", "address")) == {("closed", "")}
    # Five failed attempts, more than the limit of 2: the customer still gets the 2 they may use.
    assert [post(("USDT", "tron"), f"tron-{n}").status_code for n in range(2)] == [201, 201]
    PaymentIntent.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    refused = post(("USDT", "tron"), "tron-x")
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "intent_limit_reached")
