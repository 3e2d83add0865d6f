"""The BTCPay-format webhook: signatures, redelivery, unknown invoices, and the effect of a settled payment."""

import json

import pytest

from gpurent.chains.observations import Transfer, transfer_observe
from gpurent.core.errors import InvalidRequest
from gpurent.ledger.selectors import balance_for, ledger_check
from gpurent.payments.btcpay.webhooks import btcpay_signature
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import ChainObservation, Deposit, Payment, PaymentIntent, WebhookDelivery
from gpurent.payments.received.receive import payment_receive

pytestmark = pytest.mark.django_db

SECRET = "webhook-secret-for-tests"
URL = "/api/v1/webhooks/btcpay"


@pytest.fixture(autouse=True)
def secret(settings):
    settings.BTCPAY_WEBHOOK_SECRET = SECRET


def event(intent, delivery="d-1", original=None, payment_id="tx-1", value=None, kind="InvoicePaymentSettled"):
    body = {
        "deliveryId": delivery,
        "webhookId": "w-1",
        "originalDeliveryId": original,
        "isRedelivery": original is not None,
        "type": kind,
        "timestamp": 1764670000,
        "storeId": "store",
        "invoiceId": "inv-1",
        "metadata": {"orderId": str(intent.pk) if intent else "not-ours"},
        "payment": {"id": payment_id, "value": value or "410.000000", "status": "Settled"},
    }
    return json.dumps(body).encode()


def post(client, body, signature=None):
    headers = {} if signature == "" else {"HTTP_BTCPAY_SIG": signature or btcpay_signature(body, SECRET)}
    return client.post(URL, body, content_type="application/json", **headers)


@pytest.fixture
def intent(order, customer):
    return intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")


def test_webhook_settled_payment_confirms_the_intent_and_pays_the_order(client, intent, order, customer):
    response = post(client, event(intent))
    assert response.status_code == 200
    assert response.json() == {"status": "payment credited"}
    order.refresh_from_db()
    assert order.payment_status == "paid"
    assert ledger_check() == []


@pytest.mark.parametrize("signature", ["", "sha256=00", "sha1=abc", "sha256=" + "0" * 64])
def test_webhook_missing_or_wrong_signature_is_refused_and_changes_nothing(client, intent, signature):
    response = post(client, event(intent), signature=signature)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "invalid_signature"
    assert not WebhookDelivery.objects.exists()
    assert PaymentIntent.objects.get(pk=intent.pk).status == "awaiting_payment"


def test_webhook_reserialized_body_fails_the_signature(client, intent):
    body = event(intent)
    signature = btcpay_signature(body, SECRET)
    reserialized = json.dumps(json.loads(body), indent=2).encode()  # same data, other bytes
    assert post(client, reserialized, signature=signature).status_code == 401
    assert Deposit.objects.count() == 0


def test_webhook_without_a_configured_secret_accepts_nothing(client, intent, settings):
    settings.BTCPAY_WEBHOOK_SECRET = ""
    assert post(client, event(intent), signature=btcpay_signature(event(intent), "")).status_code == 401


def test_webhook_redelivery_is_processed_once(client, intent, customer):
    post(client, event(intent, delivery="d-1"))
    again = post(client, event(intent, delivery="d-2", original="d-1"))
    assert again.json() == {"status": "duplicate delivery: nothing changed"}
    assert Deposit.objects.count() == 1
    assert WebhookDelivery.objects.count() == 1


def test_webhook_same_payment_in_two_deliveries_credits_once(client, intent):
    post(client, event(intent, delivery="d-1"))
    second = post(client, event(intent, delivery="d-9"))
    assert second.json() == {"status": "payment credited"}
    assert Deposit.objects.count() == 1
    assert ledger_check() == []


def test_webhook_unknown_invoice_changes_nothing(client, payment_setup, customer):
    response = post(client, event(None))
    assert response.json() == {"status": "unknown invoice: nothing changed"}
    assert balance_for(customer).cents == 0


def test_webhook_invalid_invoice_rejects_the_open_intent(client, intent):
    post(client, event(intent, kind="InvoiceInvalid"))
    assert PaymentIntent.objects.get(pk=intent.pk).status == "rejected"


def test_webhook_garbage_body_with_a_valid_signature_is_refused(client, payment_setup):
    assert post(client, b"not json").status_code == 400
    assert post(client, b"[1, 2]").status_code == 400


@pytest.mark.parametrize(
    ("field", "value"),
    [("payment_id", "t" * 129), ("payment_id", "a" * 64 + "-" + "1" * 64)],
    ids=["payment-id-over-the-column", "txid-index-over-the-column"],
)
def test_webhook_payment_id_longer_than_its_column_is_400_and_stores_nothing(client, intent, field, value):
    """On PostgreSQL such an id was a DataError (a 500 that BTCPay retries forever); now a stable 400."""
    response = post(client, event(intent, **{field: value}))
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"
    assert not WebhookDelivery.objects.exists()
    assert not Payment.objects.exists()
    assert PaymentIntent.objects.get(pk=intent.pk).status == "awaiting_payment"


def test_webhook_payment_id_at_the_column_length_is_credited(client, intent):
    assert post(client, event(intent, payment_id="t" * 128)).json() == {"status": "payment credited"}
    assert Payment.objects.get().txid == "t" * 128


@pytest.mark.parametrize("txid", ["t" * 129, "", "   "])
def test_payment_receive_refuses_a_txid_the_column_cannot_hold(intent, txid):
    with pytest.raises(InvalidRequest):
        payment_receive(intent_id=intent.pk, txid=txid, amount_units=intent.amount_units, source="operator")
    assert not Payment.objects.exists()


def test_a_watcher_skips_a_transfer_whose_txid_the_column_cannot_hold(intent, caplog):
    """A node that answers an overlong transaction id does not stop the watcher with a database error."""
    transfer = Transfer("tron", "USDT", "f" * 129, 0, intent.address, intent.amount_units, "block", 10, 30)
    assert transfer_observe(transfer, required=19) is None
    assert not ChainObservation.objects.exists()
    assert not Payment.objects.exists()
    assert "transaction id" in caplog.text
