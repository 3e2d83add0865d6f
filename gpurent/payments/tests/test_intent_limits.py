"""How many payment instructions an order or a top-up may have (issue 16, decision 0310): at most
`PAYMENTS_MAX_OPEN_INTENTS` open at once and `PAYMENTS_MAX_INTENTS` in all; one more is refused with 409 and
writes nothing, in the service, the API and on the page."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from gpurent.accounts.services import api_token_create
from gpurent.core.money import Usd
from gpurent.payments.errors import IntentLimitReached, TooManyOpenIntents
from gpurent.payments.intents.lifecycle import intent_issue_for_deposit, intent_issue_for_order
from gpurent.payments.models import PaymentIntent
from gpurent.payments.received.verification import intent_reject
from gpurent.payments.services import deposit_create

pytestmark = pytest.mark.django_db


def issue_for(target, customer):
    """Issue one intent now for the order or the top-up `target`."""

    def issue():
        if hasattr(target, "gpu_id"):
            return intent_issue_for_order(order=target, owner=customer, asset="USDT", network="tron")
        return intent_issue_for_deposit(deposit=target, owner=customer, asset="USDT", network="tron")

    return issue


def expire(intents=None):
    """Time passes for these intents (default: all): their quotes expired a second ago (the rates the
    fixtures load stay fresh for 15 minutes only, so the clock itself cannot move 30 minutes on)."""
    ids = [intent.pk for intent in intents] if intents is not None else PaymentIntent.objects.values("pk")
    PaymentIntent.objects.filter(pk__in=ids).update(expires_at=timezone.now() - timedelta(seconds=1))


@pytest.fixture(params=["order", "top-up"])
def target(request, customer, order):
    return order if request.param == "order" else deposit_create(owner=customer, amount=Usd(2_500))


def test_settings_defaults_are_three_open_and_ten_in_all(settings):
    assert (settings.PAYMENTS_MAX_OPEN_INTENTS, settings.PAYMENTS_MAX_INTENTS) == (3, 10)


def test_a_fourth_open_intent_is_refused_and_writes_nothing_until_one_expires(target, customer):
    issue = issue_for(target, customer)
    opened = [issue() for _ in range(3)]
    with pytest.raises(TooManyOpenIntents) as raised:
        issue()
    assert (raised.value.code, raised.value.status) == ("too_many_open_intents", 409)
    assert "wait until one expires" in raised.value.message
    assert PaymentIntent.objects.count() == 3
    # Once the first one has expired, one more may be opened, and only one.
    expire(opened[:1])
    issue()
    with pytest.raises(TooManyOpenIntents):
        issue()
    assert PaymentIntent.objects.count() == 4


def test_a_rejected_intent_is_not_open(target, customer):
    issue = issue_for(target, customer)
    first, *_ = [issue() for _ in range(3)]
    intent_reject(intent_id=first.pk, reason="nothing arrived")
    issue()
    assert PaymentIntent.objects.count() == 4


def test_the_eleventh_intent_in_all_is_refused_even_with_none_open(target, customer):
    issue = issue_for(target, customer)
    for _ in range(10):
        issue()
        expire()  # each one has expired before the next is asked for
    with pytest.raises(IntentLimitReached) as raised:
        issue()
    assert (raised.value.code, raised.value.status) == ("intent_limit_reached", 409)
    hint = "top up your balance and pay the order from it" if hasattr(target, "gpu_id") else "start a new top-up"
    assert hint in raised.value.message
    assert PaymentIntent.objects.count() == 10


def test_the_limits_are_settings(settings, target, customer):
    settings.PAYMENTS_MAX_OPEN_INTENTS = 1
    settings.PAYMENTS_MAX_INTENTS = 2
    issue = issue_for(target, customer)
    issue()
    with pytest.raises(TooManyOpenIntents):
        issue()
    expire()
    issue()
    expire()
    with pytest.raises(IntentLimitReached):
        issue()


def test_the_api_answers_409_with_a_stable_code_not_stored_with_the_key(client, customer, order):
    auth = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=customer, name='t')[1]}"}
    url = f"/api/v1/orders/{order.ref}/intents"

    def post(key):
        body = {"asset": "USDT", "network": "tron"}
        return client.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key, **auth)

    assert [post(f"k-{n}").status_code for n in range(3)] == [201, 201, 201]
    refused = post("k-3")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "too_many_open_intents"
    assert "Use one of them" in refused.json()["error"]["message"]
    # Once the open ones have expired, the same key is answered anew: the refusal was not stored.
    expire()
    assert post("k-3").status_code == 201
    assert len(client.get(f"/api/v1/orders/{order.ref}", **auth).json()["intents"]) == 4


def test_the_top_up_api_answers_409_too(client, customer, payment_setup):
    auth = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=customer, name='t')[1]}"}
    deposit = deposit_create(owner=customer, amount=Usd(2_500))
    url = f"/api/v1/deposits/{deposit.ref}/intents"
    body = {"asset": "USDT", "network": "tron"}
    answers = [
        client.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=f"d-{n}", **auth) for n in range(4)
    ]
    assert [answer.status_code for answer in answers] == [201, 201, 201, 409]
    assert answers[3].json()["error"]["code"] == "too_many_open_intents"
    assert len(client.get(f"/api/v1/deposits/{deposit.ref}", **auth).json()["intents"]) == 3


def test_the_order_page_says_why_no_new_instructions_were_given(client, customer, order):
    client.force_login(customer)
    url = reverse("payments:order_intent", args=[order.ref])
    for n in range(3):
        client.post(url, {"pair": "USDT/tron", "idempotency_key": f"h-{n}"})
    page = client.post(url, {"pair": "USDT/tron", "idempotency_key": "h-3"}, follow=True).content.decode()
    assert "The payment instructions shown here are still open." in page
    assert PaymentIntent.objects.count() == 3


def test_the_top_up_page_says_why_no_new_instructions_were_given(client, customer, payment_setup):
    client.force_login(customer)
    deposit = deposit_create(owner=customer, amount=Usd(2_500))
    url = reverse("payments:deposit_intent", args=[deposit.ref])
    for _ in range(10):
        intent_issue_for_deposit(deposit=deposit, owner=customer, asset="USDT", network="tron")
        expire()
    page = client.post(url, {"pair": "USDT/tron", "idempotency_key": "t-1"}, follow=True).content.decode()
    assert "start a new top-up" in page
    assert PaymentIntent.objects.count() == 10
