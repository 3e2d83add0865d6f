"""The balance's three figures (issue 32): the whole balance, what open payment instructions hold, and what can be
spent or withdrawn. The API, the balance page and the withdrawal check read them from one function."""

import pytest
from django.urls import reverse

from gpurent.accounts.services import api_token_create
from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.payments.balance.figures import balance_figures
from gpurent.payments.intents.lifecycle import intent_issue_for_order

from .conftest import later

pytestmark = pytest.mark.django_db


@pytest.fixture
def held_in_full(customer, order, settings):
    """$100 on the balance, all of it held by the open intent of a $410 order."""
    settings.PAYOUTS_MIN_CENTS, settings.PAYOUTS_FEE_CENTS = 2_000, 100
    transfer_post(
        reference="deposit:D-HELD",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(10_000),
    )
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    assert intent.balance_share_cents == 10_000
    return customer


def test_the_api_says_what_is_held_and_what_can_be_spent_as_the_withdrawal_check_does(client, held_in_full):
    auth = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=held_in_full, name='t')[1]}"}
    balance = client.get("/api/v1/balance", **auth).json()
    assert (balance["balance_usd"], balance["held_usd"], balance["spendable_usd"]) == ("100.00", "100.00", "0.00")
    # The old field keeps its documented meaning (the whole balance, holds included) for existing clients.
    assert balance["available_usd"] == balance["balance_usd"] == balance["entries"][0]["balance_after_usd"]
    refused = client.post(
        "/api/v1/payouts",
        {"asset": "USDT", "network": "tron", "address": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "amount_usd": "20.00"},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="w-1",
        **auth,
    )
    assert (refused.status_code, refused.json()["error"]["code"]) == (422, "insufficient_balance")


def test_the_page_shows_the_same_three_figures(client, held_in_full):
    client.force_login(held_in_full)
    page = client.get(reverse("payments:balance")).content.decode()
    assert '<strong data-testid="balance-total">$100.00</strong>' in page
    assert '<strong data-testid="held">$100.00</strong>' in page
    assert '<strong data-testid="available">$0.00</strong>' in page
    assert "Available: <strong>$100.00</strong>" not in page  # the whole balance was labelled "Available"


def test_the_hold_ends_with_its_intent_and_the_figures_follow(held_in_full):
    now = balance_figures(held_in_full)
    assert (now.balance, now.held, now.spendable) == (Usd(10_000), Usd(10_000), Usd(0))
    expired = balance_figures(held_in_full, now=later())
    assert (expired.balance, expired.held, expired.spendable) == (Usd(10_000), Usd(0), Usd(10_000))


def test_the_api_schema_documents_each_figure(client):
    schema = client.get("/api/v1/openapi.json").json()["components"]["schemas"]["BalanceOut"]["properties"]
    assert "Deprecated" in schema["available_usd"]["description"]
    for name in ("balance_usd", "held_usd", "spendable_usd"):
        assert schema[name]["description"], name
