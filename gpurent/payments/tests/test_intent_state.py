"""One state per intent, worded the same on every page, in the API and on the payments desk (issue 32).

Found by an outside run against real nodes: a payment that reached its depth after its instructions expired
(in review) read "Payment confirmed on chain (6 confirmations)" on the intent, "Awaiting payment" on the order
and "confirmed automatically by the chain watcher" on the desk; the API showed `awaiting_payment` and no
confirmations while the page said "Seen on chain, 2 of 6 confirmations"; and a reported intent kept its
"Awaiting payment" badge and a live countdown.
"""

import re
from datetime import UTC, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from gpurent.accounts.services import api_token_create
from gpurent.chains.crediting import observation_credit
from gpurent.core.money import Usd
from gpurent.payments.intents.lifecycle import intent_issue_for_deposit, intent_issue_for_order, intent_report
from gpurent.payments.models import ChainObservation, IntentStatus, PaymentIntent, PaymentState
from gpurent.payments.services import deposit_create

pytestmark = pytest.mark.django_db

TRON_ADDRESS = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"  # the fixtures' shared Tron address


@pytest.fixture
def auth(customer):
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=customer, name='t')[1]}"}


@pytest.fixture
def intent(order, customer, settings):
    settings.CHAIN_WATCH_URLS = {"tron": "http://127.0.0.1:1/"}
    return intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")


def _seen(intent, *, confirmations, required=19, txid="ab" * 32):
    """What a Tron watcher records for a transfer paying the whole intent."""
    return ChainObservation.objects.create(
        network="tron",
        asset="USDT",
        txid=txid,
        output_index=0,
        address=intent.address,
        amount_chain=str(intent.amount_units),
        amount_units=intent.amount_units,
        intent=intent,
        block_height=100 if confirmations else None,
        confirmations=confirmations,
        required_confirmations=required,
    )


def _in_review(intent):
    """A transfer first seen after the instructions expired, handed to the payment service at its depth."""
    PaymentIntent.objects.filter(pk=intent.pk).update(
        expires_at=timezone.now() - timedelta(hours=1), status=IntentStatus.EXPIRED
    )
    observation = _seen(intent, confirmations=19)
    observation_credit(observation_id=observation.pk)
    intent.refresh_from_db()
    assert intent.status == IntentStatus.REVIEW
    assert intent.payments.get().state == PaymentState.REVIEW


def _intent_html(page, intent):
    return page.split(f'id="intent-{intent.pk}"', 1)[1].split("</article>", 1)[0]


def test_api_intent_shows_what_the_page_shows_while_a_transfer_is_below_its_depth(
    client, auth, customer, order, intent
):
    _seen(intent, confirmations=2, required=6)
    client.force_login(customer)
    page = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    assert "Seen on chain, 2 of 6 confirmations" in _intent_html(page, intent)

    body = client.get(f"/api/v1/orders/{order.ref}", **auth).json()
    (shown,) = body["intents"]
    assert shown["status"] == "awaiting_payment"  # unchanged: fields are added, never renamed
    assert (shown["state"], shown["state_label"]) == ("seen_on_chain", "Seen on chain")
    assert shown["state_message"] == "Seen on chain, 2 of 6 confirmations"
    assert (shown["confirmations"], shown["required_confirmations"]) == (2, 6)
    (transfer,) = shown["transfers"]
    assert transfer["txid"] == "ab" * 32
    assert (transfer["state"], transfer["confirmations"], transfer["amount"]) == ("seen", 2, "410.000000")
    assert body["payment_state"] == "seen_on_chain"


def test_api_intent_without_a_transfer_has_no_confirmations(client, auth, order, intent):
    (shown,) = client.get(f"/api/v1/orders/{order.ref}", **auth).json()["intents"]
    assert (shown["state"], shown["confirmations"], shown["required_confirmations"], shown["transfers"]) == (
        "awaiting_payment",
        None,
        None,
        [],
    )


def test_a_payment_in_review_reads_in_review_on_every_page_the_api_and_the_receipt(
    client, auth, customer, order, intent
):
    _in_review(intent)
    client.force_login(customer)
    page = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    assert "Payment confirmed on chain" not in page
    assert 'class="status status-review">In review<' in page  # the order's badge
    shown = _intent_html(page, intent)
    assert 'data-testid="intent-state">In review<' in shown
    assert "Payment on chain (19 confirmations): in review." in shown
    assert "A payment arrived after these instructions expired." in shown
    assert 'class="status status-awaiting_payment"' not in page  # the history keeps its "Awaiting payment" line

    rentals = client.get(reverse("orders:rentals")).content.decode()
    assert 'class="status status-review">In review<' in rentals
    assert "Awaiting payment" not in rentals
    printable = client.get(reverse("orders:rentals_printable")).content.decode()
    assert 'class="status status-review">In review<' in printable

    receipt = client.get(reverse("payments:receipt", args=[order.ref])).content.decode()
    assert 'data-testid="receipt-payment">In review' in receipt

    body = client.get(f"/api/v1/orders/{order.ref}", **auth).json()
    assert (body["payment_status"], body["payment_state"]) == ("awaiting_payment", "review")
    (api_intent,) = body["intents"]
    assert (api_intent["status"], api_intent["state"], api_intent["state_label"]) == ("review", "review", "In review")
    assert api_intent["transfers"][0]["state"] == "review"


def test_the_desk_does_not_call_a_payment_in_review_confirmed(client, admin_user, intent):
    _in_review(intent)
    client.force_login(admin_user)
    detail = client.get(f"/backoffice/backoffice/paymentsdesk/{intent.pk}/change/").content.decode()
    assert "confirmed automatically" not in detail
    assert "recorded by the chain watcher on" in detail
    assert "not credited: it arrived after the instructions expired, decide below" in detail
    assert "In review (A payment arrived after these instructions expired." in detail


def test_the_desk_says_a_credited_chain_payment_was_confirmed_automatically(client, admin_user, intent):
    observation = _seen(intent, confirmations=19)
    observation_credit(observation_id=observation.pk)
    client.force_login(admin_user)
    detail = client.get(f"/backoffice/backoffice/paymentsdesk/{intent.pk}/change/").content.decode()
    assert "Credited" in detail
    assert "confirmed automatically by the chain watcher on" in detail


def test_the_desk_asks_for_the_configured_depth(client, admin_user, intent, settings):
    settings.PAYMENTS_CONFIRMATIONS = {"tron": 3}
    client.force_login(admin_user)
    detail = client.get(f"/backoffice/backoffice/paymentsdesk/{intent.pk}/change/").content.decode()
    assert "wait for 3 confirmations" in detail


def test_a_reported_intent_shows_one_state_and_no_countdown(client, auth, customer, order, intent):
    intent_report(intent=intent)
    client.force_login(customer)
    page = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    shown = _intent_html(page, intent)
    assert 'data-testid="intent-state">Payment reported<' in shown
    assert "Awaiting payment" not in shown
    assert 'class="countdown"' not in shown
    assert "Payment reported. Awaiting verification." in shown
    (api_intent,) = client.get(f"/api/v1/orders/{order.ref}", **auth).json()["intents"]
    assert (api_intent["state"], api_intent["state_message"]) == (
        "payment_reported",
        "Payment reported. Awaiting verification.",
    )


def test_open_instructions_say_until_when_at_the_clock_and_how_long_is_left_apart(client, customer, order, intent):
    # QA: the label said "Valid until" and the countdown script replaced its clock time with "29:59 left".
    client.force_login(customer)
    shown = _intent_html(client.get(reverse("orders:rental", args=[order.ref])).content.decode(), intent)
    until = intent.expires_at.astimezone(UTC).strftime("%H:%M")
    valid = re.search(r"<dt>Valid until</dt><dd>(.*?)</dd>", shown)
    assert valid is not None
    assert re.fullmatch(rf'<time datetime="[^"]+">{until} UTC</time>', valid.group(1))  # not the countdown's
    left = re.search(r"<dt>Time left</dt><dd>(.*?)</dd>", shown)
    assert left is not None
    assert 'class="countdown"' in left.group(1)
    assert re.search(r">(29|30):\d\d</time>$", left.group(1))  # without the script too


def test_chain_evidence_says_more_than_a_report(client, customer, order, intent):
    intent_report(intent=intent)
    _seen(intent, confirmations=1)
    client.force_login(customer)
    rentals = client.get(reverse("orders:rentals")).content.decode()
    assert 'class="status status-seen_on_chain">Seen on chain<' in rentals


def test_the_polled_chain_part_reloads_the_page_when_the_state_changes(client, customer, intent):
    client.force_login(customer)
    url = reverse("payments:intent_chain", args=[intent.pk]) + "?status=awaiting_payment"
    assert "HX-Refresh" not in client.get(url, HTTP_HX_REQUEST="true").headers
    _seen(intent, confirmations=1)  # the status is still awaiting_payment; the badge must change all the same
    assert client.get(url, HTTP_HX_REQUEST="true").headers["HX-Refresh"] == "true"
    seen = reverse("payments:intent_chain", args=[intent.pk]) + "?status=seen_on_chain"
    fragment = client.get(seen, HTTP_HX_REQUEST="true")
    assert "HX-Refresh" not in fragment.headers
    assert "Seen on chain, 1 of 19 confirmations" in fragment.content.decode()


def test_a_top_up_in_review_reads_in_review(client, customer, payment_setup, settings):
    deposit = deposit_create(owner=customer, amount=Usd(5000))
    intent = intent_issue_for_deposit(deposit=deposit, owner=customer, asset="USDT", network="tron")
    _in_review(intent)
    client.force_login(customer)
    page = client.get(reverse("payments:deposit", args=[deposit.ref])).content.decode()
    assert 'class="status status-review">In review<' in page
    assert "Payment confirmed on chain" not in page


def test_an_intent_with_its_observations_prefetched_is_shown_without_asking_for_them_again(
    intent, django_assert_num_queries
):
    """Lists prefetch each intent's payments and chain observations (the order panel, a top-up's page): drawing
    an intent's chain part must read that prefetch, not one more query per intent."""
    from django.db.models import prefetch_related_objects

    from gpurent.payments.views import intent_chain

    _seen(intent, confirmations=2)
    prefetch_related_objects([intent], "payments", "chain_observations")
    with django_assert_num_queries(0):
        chain = intent_chain(intent)
    assert chain["chain_live"]
