"""Payments API: shapes, idempotency, errors, and another customer's objects (404)."""

import pytest

from gpurent.accounts.services import api_token_create
from gpurent.ledger.selectors import balance_for
from gpurent.payments.models import Deposit, PaymentIntent
from gpurent.payments.received.verification import intent_confirm

pytestmark = pytest.mark.django_db


@pytest.fixture
def auth(customer):
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=customer, name='t')[1]}"}


@pytest.fixture
def stranger(django_user_model):
    user = django_user_model.objects.create_user("eve@example.com", "passphrase 12", first_name="E", last_name="V")
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t')[1]}"}


def post(client, url, body, auth, key="k-1"):
    return client.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key, **auth)


def test_order_intent_create_and_report_in_the_design_shape(client, auth, order):
    response = post(client, f"/api/v1/orders/{order.ref}/intents", {"asset": "USDT", "network": "tron"}, auth)
    assert response.status_code == 201
    intent = response.json()
    assert (intent["asset"], intent["network"], intent["amount"], intent["usd_amount"]) == (
        "USDT",
        "tron",
        "410.000000",
        "410.00",
    )
    assert intent["status"] == "awaiting_payment"
    assert intent["reported_at"] is None
    report = client.post(f"/api/v1/intents/{intent['id']}/report", **auth)
    assert report.status_code == 200
    assert report.json()["message"] == "Payment reported. Awaiting verification."
    order_json = client.get(f"/api/v1/orders/{order.ref}", **auth).json()
    assert order_json["payment_reported"] is True
    assert [item["id"] for item in order_json["intents"]] == [intent["id"]]


def test_order_intent_same_key_replays_and_symbol_alone_is_refused(client, auth, order):
    first = post(client, f"/api/v1/orders/{order.ref}/intents", {"asset": "USDT", "network": "tron"}, auth)
    again = post(client, f"/api/v1/orders/{order.ref}/intents", {"asset": "USDT", "network": "tron"}, auth)
    assert first.json()["id"] == again.json()["id"]
    assert PaymentIntent.objects.count() == 1
    refused = post(client, f"/api/v1/orders/{order.ref}/intents", {"asset": "USDT", "network": ""}, auth, key="k-2")
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] in {"unsupported_pair", "invalid_request"}


def test_pay_from_balance_insufficient_is_stored_against_the_key(client, auth, order, customer):
    first = post(client, f"/api/v1/orders/{order.ref}/pay-from-balance", {}, auth)
    assert first.status_code == 422
    assert first.json()["error"]["code"] == "insufficient_balance"
    deposit = post(client, "/api/v1/deposits", {"amount_usd": "500.00"}, auth, key="d-1").json()
    intent = post(
        client, f"/api/v1/deposits/{deposit['ref']}/intents", {"asset": "USDT", "network": "tron"}, auth, key="d-2"
    )
    intent_confirm(intent_id=intent.json()["id"], txid="tx", received_units=500_000_000)
    assert post(client, f"/api/v1/orders/{order.ref}/pay-from-balance", {}, auth).status_code == 422  # replayed
    paid = post(client, f"/api/v1/orders/{order.ref}/pay-from-balance", {}, auth, key="k-new")
    assert paid.status_code == 200
    assert paid.json()["payment_status"] == "paid"
    balance = client.get("/api/v1/balance", **auth).json()
    assert balance["available_usd"] == "90.00"
    assert [(entry["direction"], entry["amount_usd"]) for entry in balance["entries"]] == [  # newest first
        ("debit", "410.00"),
        ("credit", "500.00"),
    ]


def test_an_order_already_paid_answers_nothing_to_pay_from_both_ways_of_paying(client, auth, order, customer):
    # QA2 #15: instructions answered 409 `nothing_to_pay`, the balance 409 `transition_not_allowed`.
    deposit = post(client, "/api/v1/deposits", {"amount_usd": "500.00"}, auth, key="d-1").json()
    intent = post(
        client, f"/api/v1/deposits/{deposit['ref']}/intents", {"asset": "USDT", "network": "tron"}, auth, key="d-2"
    )
    intent_confirm(intent_id=intent.json()["id"], txid="tx", received_units=500_000_000)
    assert post(client, f"/api/v1/orders/{order.ref}/pay-from-balance", {}, auth, key="p-1").status_code == 200
    again = post(client, f"/api/v1/orders/{order.ref}/pay-from-balance", {}, auth, key="p-2")
    instructions = post(client, f"/api/v1/orders/{order.ref}/intents", {"asset": "USDT", "network": "tron"}, auth)
    expected = {"code": "nothing_to_pay", "message": "This order is not waiting for a payment."}
    assert (again.status_code, again.json()["error"]) == (409, expected)
    assert (instructions.status_code, instructions.json()["error"]) == (409, expected)


def test_deposit_create_validates_the_amount(client, auth, customer):
    for amount in ["abc", "1.001", "-5", "4.99"]:
        response = post(client, "/api/v1/deposits", {"amount_usd": amount}, auth, key=f"k-{amount}")
        assert response.status_code == 422, amount
    assert not Deposit.objects.exists()
    assert balance_for(customer).cents == 0


def test_another_customers_intents_deposits_reports_and_balance_are_404_or_theirs(client, auth, stranger, order):
    intent = post(client, f"/api/v1/orders/{order.ref}/intents", {"asset": "USDT", "network": "tron"}, auth).json()
    deposit = post(client, "/api/v1/deposits", {"amount_usd": "50.00"}, auth, key="d").json()
    assert client.post(f"/api/v1/intents/{intent['id']}/report", **stranger).status_code == 404
    assert PaymentIntent.objects.get(pk=intent["id"]).reported_at is None
    assert (
        post(client, f"/api/v1/orders/{order.ref}/intents", {"asset": "USDT", "network": "tron"}, stranger).status_code
        == 404
    )
    assert post(client, f"/api/v1/orders/{order.ref}/pay-from-balance", {}, stranger).status_code == 404
    assert client.get(f"/api/v1/deposits/{deposit['ref']}", **stranger).status_code == 404
    assert (
        post(
            client, f"/api/v1/deposits/{deposit['ref']}/intents", {"asset": "BTC", "network": "bitcoin"}, stranger
        ).status_code
        == 404
    )
    assert client.get("/api/v1/balance", **stranger).json() == {
        "balance_usd": "0.00",
        "held_usd": "0.00",
        "spendable_usd": "0.00",
        "available_usd": "0.00",
        "entries": [],
        "next": None,
    }
    assert client.post("/api/v1/intents/not-a-uuid/report", **stranger).status_code == 404
