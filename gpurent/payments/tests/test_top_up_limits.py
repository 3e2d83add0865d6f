"""How many unpaid top-ups an account may have (issue 16, decision 0320): `PAYMENTS_MAX_PENDING_TOP_UPS` pending
top-ups made in the last `PAYMENTS_TOP_UP_HOURS`; an older one takes no new instructions and no longer counts.
Refused with 409 `too_many_pending_top_ups`, writing nothing, in the service, the API and on the balance page;
the pages show why instead of a button that would be refused (decision 0310's limits too)."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from gpurent.accounts.services import api_token_create
from gpurent.core.money import Usd
from gpurent.payments.balance.figures import deposit_row_create
from gpurent.payments.errors import NothingToPay, TooManyPendingTopUps
from gpurent.payments.intents.lifecycle import intent_issue_for_deposit
from gpurent.payments.models import Deposit, DepositKind, DepositStatus, PaymentIntent
from gpurent.payments.services import deposit_create

pytestmark = pytest.mark.django_db

LIMIT = 5
BUTTON = "Get new instructions"
REFUSAL = 'data-testid="intent-refusal"'


@pytest.fixture
def limit(settings):
    settings.PAYMENTS_MAX_PENDING_TOP_UPS = LIMIT  # the test settings raise it for the pagination tests


def top_ups(customer, count):
    return [deposit_create(owner=customer, amount=Usd(1_000)) for _ in range(count)]


def age(deposits, hours):
    Deposit.objects.filter(pk__in=[d.pk for d in deposits]).update(created_at=timezone.now() - timedelta(hours=hours))


def test_settings_defaults_are_five_top_ups_in_24_hours():
    from config.settings import base

    assert (base.PAYMENTS_MAX_PENDING_TOP_UPS, base.PAYMENTS_TOP_UP_HOURS) == (5, 24)


def test_a_sixth_pending_top_up_is_refused_and_writes_nothing(limit, customer):
    top_ups(customer, LIMIT)
    with pytest.raises(TooManyPendingTopUps) as raised:
        deposit_create(owner=customer, amount=Usd(1_000))
    assert (raised.value.code, raised.value.status) == ("too_many_pending_top_ups", 409)
    assert "stops counting 24 hours after it was made" in raised.value.message
    assert Deposit.objects.count() == LIMIT


@pytest.mark.parametrize("status", [DepositStatus.CREDITED, DepositStatus.CANCELLED])
def test_a_paid_or_cancelled_top_up_frees_a_place(limit, customer, status):
    first, *_ = top_ups(customer, LIMIT)
    Deposit.objects.filter(pk=first.pk).update(status=status, credited_cents=1_000)
    deposit_create(owner=customer, amount=Usd(1_000))
    with pytest.raises(TooManyPendingTopUps):
        deposit_create(owner=customer, amount=Usd(1_000))


def test_an_unpaid_top_up_stops_counting_once_the_window_has_passed(limit, customer):
    first, *_ = top_ups(customer, LIMIT)
    age([first], hours=23)
    with pytest.raises(TooManyPendingTopUps):
        deposit_create(owner=customer, amount=Usd(1_000))
    age([first], hours=24)
    deposit_create(owner=customer, amount=Usd(1_000))
    assert Deposit.objects.filter(status=DepositStatus.PENDING).count() == LIMIT + 1


def test_only_this_accounts_top_ups_count(limit, customer, django_user_model):
    other = django_user_model.objects.create_user("other@example.com", "passphrase 12")
    top_ups(other, LIMIT)
    # Deposits of other kinds (a payment for an order, a reviewed late payment) are not top-ups asked for.
    for kind in (DepositKind.ORDER_PAYMENT, DepositKind.REVIEW):
        deposit_row_create(owner_id=customer.pk, kind=kind)
    top_ups(customer, LIMIT)


def test_the_limit_is_a_setting(settings, customer):
    settings.PAYMENTS_MAX_PENDING_TOP_UPS = 1
    top_ups(customer, 1)
    with pytest.raises(TooManyPendingTopUps):
        deposit_create(owner=customer, amount=Usd(1_000))


def test_a_top_up_past_its_window_takes_no_new_instructions(customer, payment_setup):
    deposit = deposit_create(owner=customer, amount=Usd(2_500))
    intent_issue_for_deposit(deposit=deposit, owner=customer, asset="USDT", network="tron")
    age([deposit], hours=24)
    with pytest.raises(NothingToPay) as raised:
        intent_issue_for_deposit(deposit=deposit, owner=customer, asset="USDT", network="tron")
    assert "start a new top-up" in raised.value.message
    assert PaymentIntent.objects.count() == 1


def test_the_api_answers_409_with_a_stable_code_not_stored_with_the_key(limit, client, customer):
    auth = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=customer, name='t')[1]}"}

    def post(key):
        return client.post(
            "/api/v1/deposits",
            {"amount_usd": "10.00"},
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=key,
            **auth,
        )

    assert [post(f"k-{n}").status_code for n in range(LIMIT)] == [201] * LIMIT
    refused = post("k-x")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "too_many_pending_top_ups"
    assert Deposit.objects.count() == LIMIT
    # Once one is paid, the same key is answered anew: the refusal was not stored.
    Deposit.objects.filter(pk=Deposit.objects.earliest("created_at").pk).update(
        status=DepositStatus.CREDITED, credited_cents=1_000
    )
    assert post("k-x").status_code == 201


def test_the_balance_page_refuses_with_a_message_then_shows_no_form(limit, client, customer):
    client.force_login(customer)
    top_ups(customer, LIMIT - 1)
    page = client.get(reverse("payments:balance")).content.decode()
    assert reverse("payments:top_up") in page
    assert 'data-testid="top-up-refusal"' not in page
    top_ups(customer, 1)
    # A form sent before the limit was reached (another tab): refused with a message, nothing written.
    answer = client.post(reverse("payments:top_up"), {"amount_usd": "10.00", "idempotency_key": "b-1"}, follow=True)
    assert "as many unpaid top-ups as an account may have at once" in answer.content.decode()
    assert Deposit.objects.count() == LIMIT
    page = client.get(reverse("payments:balance")).content.decode()
    assert 'data-testid="top-up-refusal"' in page
    assert reverse("payments:top_up") not in page


def test_the_top_up_page_shows_why_instead_of_a_button_that_would_be_refused(client, customer, payment_setup):
    client.force_login(customer)
    deposit = deposit_create(owner=customer, amount=Usd(2_500))
    url = reverse("payments:deposit", args=[deposit.ref])
    for _ in range(2):
        intent_issue_for_deposit(deposit=deposit, owner=customer, asset="USDT", network="tron")
    page = client.get(url).content.decode()
    assert BUTTON in page
    assert REFUSAL not in page
    intent_issue_for_deposit(deposit=deposit, owner=customer, asset="USDT", network="tron")
    page = client.get(url).content.decode()
    assert BUTTON not in page
    assert REFUSAL in page
    assert "wait until one expires" in page
    PaymentIntent.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert BUTTON in client.get(url).content.decode()
    age([deposit], hours=24)
    page = client.get(url).content.decode()
    assert BUTTON not in page
    assert "takes no new payment instructions" in page


def test_the_order_page_shows_why_instead_of_a_button_that_would_be_refused(client, customer, order):
    client.force_login(customer)
    url = reverse("orders:rental", args=[order.ref])
    assert REFUSAL not in client.get(url).content.decode()
    for n in range(3):
        client.post(
            reverse("payments:order_intent", args=[order.ref]), {"pair": "USDT/tron", "idempotency_key": f"o-{n}"}
        )
    page = client.get(url).content.decode()
    assert BUTTON not in page
    assert REFUSAL in page
    assert "wait until one expires" in page
    PaymentIntent.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    page = client.get(url).content.decode()
    assert BUTTON in page
    assert REFUSAL not in page
