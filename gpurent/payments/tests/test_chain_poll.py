"""The intent's chain status polled by the page: the fragment while the status is the one drawn, a full-page
refresh (HX-Refresh) once it changed, and another customer's intent is a 404."""

import pytest
from django.urls import reverse

from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.received.verification import intent_confirm

pytestmark = pytest.mark.django_db


@pytest.fixture
def watched_intent(order, customer, settings):
    settings.CHAIN_WATCH_URLS = {"tron": "http://127.0.0.1:1/"}
    settings.CHAIN_PAGE_POLL_SECONDS = 7
    return intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")


def test_the_page_polls_at_the_configured_interval_with_the_status_it_shows(client, customer, order, watched_intent):
    client.force_login(customer)
    page = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    url = reverse("payments:intent_chain", args=[watched_intent.pk])
    assert f'hx-get="{url}?status=awaiting_payment" hx-trigger="every 7s"' in page


def test_same_status_answers_the_fragment_and_a_changed_one_refreshes_the_page(client, customer, watched_intent):
    client.force_login(customer)
    url = reverse("payments:intent_chain", args=[watched_intent.pk]) + "?status=awaiting_payment"
    same = client.get(url, HTTP_HX_REQUEST="true")
    assert same.status_code == 200
    assert "HX-Refresh" not in same.headers
    assert f'id="intent-chain-{watched_intent.pk}"' in same.content.decode()

    intent_confirm(intent_id=watched_intent.pk, txid="tron-tx-1", received_units=watched_intent.amount_units)
    changed = client.get(url, HTTP_HX_REQUEST="true")
    assert changed.headers["HX-Refresh"] == "true"


def test_another_customers_intent_is_not_found(client, django_user_model, watched_intent):
    other = django_user_model.objects.create_user("eve@example.com", "passphrase 12", first_name="E", last_name="V")
    client.force_login(other)
    url = reverse("payments:intent_chain", args=[watched_intent.pk]) + "?status=awaiting_payment"
    assert client.get(url).status_code == 404
