"""The signed webhook answers malformed deliveries with a stable 4xx, so BTCPay does not retry them forever."""

import json

import pytest

from gpurent.payments.btcpay.webhooks import btcpay_signature
from gpurent.payments.models import WebhookDelivery

pytestmark = pytest.mark.django_db

SECRET = "webhook-secret-for-input-tests"
URL = "/api/v1/webhooks/btcpay"


@pytest.fixture(autouse=True)
def secret(settings):
    settings.BTCPAY_WEBHOOK_SECRET = SECRET


def post(client, body: bytes):
    return client.post(URL, body, content_type="application/json", HTTP_BTCPAY_SIG=btcpay_signature(body, SECRET))


def event(**fields):
    return json.dumps({"deliveryId": "d-1", "type": "InvoiceCreated", "invoiceId": "inv-1", **fields}).encode()


@pytest.mark.parametrize(
    "body",
    [
        event(deliveryId="d" * 101),
        event(originalDeliveryId="o" * 101),
        b'{"deliveryId": "d-1", "metadata": ' + b"[" * 50_000 + b"]" * 50_000 + b"}",
        event(type="Invoice\u0000Created"),
        event(deliveryId="d\u0000"),
        event(metadata={"orderId\u0000": "x"}),
    ],
    ids=["long-delivery-id", "long-original-id", "nested-too-deep", "nul-type", "nul-id", "nul-key"],
)
def test_webhook_malformed_signed_delivery_is_400_and_records_nothing(client, body):
    response = post(client, body)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"
    assert not WebhookDelivery.objects.exists()


def test_webhook_delivery_id_at_the_column_length_is_recorded(client):
    assert post(client, event(deliveryId="d" * 100)).status_code == 200
    assert WebhookDelivery.objects.get().delivery_key == "d" * 100


@pytest.mark.parametrize(
    "body",
    [event(invoiceId="i" * 101), event(type="T" * 61), event(payment={"id": "p" * 129, "value": "1"})],
    ids=["long-invoice-id", "long-type", "long-payment-id"],
)
def test_webhook_string_longer_than_its_column_is_400_and_records_nothing(client, body):
    """Stored strings are refused, not cut: a cut invoice id or type would record another event than was sent."""
    response = post(client, body)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"
    assert not WebhookDelivery.objects.exists()
