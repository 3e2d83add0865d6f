"""The BTCPay Server webhook: authenticate, deduplicate, and turn payment events into verifications.

Our intents are attributed by the invoice id the shop stored when it created the invoice (`invoices.py`), and
for invoices made in BTCPay itself by `metadata.orderId`, which carries the intent id. Each settled
payment (`InvoicePaymentSettled`) is recorded and credited through `received.receive.payment_receive` (source
`processor`; the payment id `<txid>-<vout>` is the transaction and output), so an invoice with several
payments credits each once; `InvoiceInvalid` rejects an open intent. Other
events are acknowledged and recorded. Nothing is trusted before the signature is checked.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
from decimal import Decimal
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import IntegrityError, transaction

from gpurent.core.errors import ApplicationError
from gpurent.core.schemas import contains_nul

from ..assets import pair_get, parse_units
from ..errors import WebhookMalformed, WebhookRefused
from ..models import Payment, PaymentIntent, PaymentSource, WebhookDelivery
from ..received.receive import payment_receive
from ..received.verification import intent_reject
from .client import BTCPAY

__all__ = ["btcpay_signature", "btcpay_webhook_handle"]

logger = logging.getLogger(__name__)

_CONFIRMING_EVENTS = {"InvoicePaymentSettled"}
_ONCHAIN_PAYMENT_ID = re.compile(r"^(?P<txid>[0-9a-fA-F]{64})-(?P<index>[0-9]{1,9})$")
_DELIVERY_KEY_MAX = WebhookDelivery._meta.get_field("delivery_key").max_length or 0
# The event's strings the shop stores, with the column each goes to: one longer than its column is refused
# whole (never cut: a cut invoice id or payment id would record another event than the one sent).
_STORED_STRINGS = {
    ("type",): WebhookDelivery._meta.get_field("event_type").max_length or 0,
    ("invoiceId",): WebhookDelivery._meta.get_field("invoice_id").max_length or 0,
    ("payment", "id"): Payment._meta.get_field("txid").max_length or 0,
}


def _too_long(event: dict[str, Any]) -> bool:
    for path, limit in _STORED_STRINGS.items():
        value: Any = event
        for name in path:
            value = value.get(name) if isinstance(value, dict) else None
        if value is not None and len(str(value)) > limit:
            return True
    return False


def btcpay_signature(body: bytes, secret: str) -> str:
    """`sha256=<hex HMAC-SHA256(key=secret, msg=raw body)>`, as BTCPay Server signs its webhooks."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def _verified_event(body: bytes, signature: str) -> dict[str, Any]:
    secret = settings.BTCPAY_WEBHOOK_SECRET
    # Constant-time comparison of the whole header; no secret configured means no webhook is accepted.
    if not secret or not hmac.compare_digest(signature.encode(), btcpay_signature(body, secret).encode()):
        raise WebhookRefused()
    try:
        event = json.loads(body, parse_float=Decimal)
    except (ValueError, UnicodeDecodeError, RecursionError):
        # RecursionError: JSON nested thousands deep. A 4xx, so that the sender does not retry it forever.
        raise WebhookMalformed("The body is not JSON.") from None
    if not isinstance(event, dict) or not isinstance(event.get("deliveryId"), str):
        raise WebhookMalformed("The body is not a BTCPay webhook event.")
    keys = [event["deliveryId"], event.get("originalDeliveryId") or ""]
    if not all(isinstance(key, str) and len(key) <= _DELIVERY_KEY_MAX for key in keys) or contains_nul(event):
        raise WebhookMalformed("The delivery id is too long or the event contains a NUL character.")
    if _too_long(event):
        # On PostgreSQL the row would fail with a DataError, a 500 that the sender retries forever.
        raise WebhookMalformed("A type, invoice id or payment id is longer than the shop stores.")
    return event


def _intent_for(event: dict[str, Any]) -> PaymentIntent | None:
    """The intent of the event's invoice: the one that stored this invoice id when the shop created it; else the
    one named by `metadata.orderId` (an invoice made in BTCPay itself), unless that intent has an invoice of its
    own and this is another one (a second invoice carrying our id is not ours to credit)."""
    invoice_id = str(event.get("invoiceId") or "")
    if invoice_id:
        created = PaymentIntent.objects.filter(processor=BTCPAY, processor_invoice_id=invoice_id).first()
        if created is not None:
            return created
    metadata = event.get("metadata")
    reference = metadata.get("orderId") if isinstance(metadata, dict) else None
    try:
        named = PaymentIntent.objects.get(pk=UUID(str(reference)))
    except (ValueError, PaymentIntent.DoesNotExist):
        return None
    return None if named.processor_invoice_id and named.processor_invoice_id != invoice_id else named


def _payment_key(payment_id: str) -> tuple[str, int]:
    """BTCPay names an on-chain payment `<txid>-<output index>`: split it, so that the same output reported
    by an operator or a watcher is recognised as the same payment. Any other id is kept whole, index 0."""
    match = _ONCHAIN_PAYMENT_ID.match(payment_id)
    if match:
        return match["txid"], int(match["index"])
    return payment_id, 0


def _apply(event: dict[str, Any]) -> str:
    kind = str(event.get("type", ""))
    intent = _intent_for(event)
    if intent is None:
        return "unknown invoice: nothing changed"
    if kind in _CONFIRMING_EVENTS:
        payment = event.get("payment")
        if not isinstance(payment, dict) or not payment.get("id") or payment.get("value") is None:
            return "payment event without payment: nothing changed"
        units = parse_units(str(payment["value"]), pair_get(intent.asset, intent.network))
        txid, index = _payment_key(str(payment["id"]))
        received = payment_receive(
            intent_id=intent.pk, txid=txid, output_index=index, amount_units=units, source=PaymentSource.PROCESSOR
        )
        return f"payment {received.state}"
    if kind == "InvoiceInvalid":
        intent = intent_reject(intent_id=intent.pk, reason="BTCPay: invoice invalid")
        return f"intent {intent.status}"
    return f"{kind}: recorded"


def btcpay_webhook_handle(*, body: bytes, signature: str) -> str:
    """Process one webhook delivery; returns what happened. A redelivery of a processed event does nothing.

    Raises:
        WebhookRefused: the signature is missing or wrong (nothing changes).
        WebhookMalformed: a signed body that is not an event (nothing changes).
    """
    event = _verified_event(body, signature)
    key = str(event.get("originalDeliveryId") or event["deliveryId"])
    try:
        with transaction.atomic():
            delivery = WebhookDelivery.objects.create(
                delivery_key=key,
                event_type=str(event.get("type", "")),
                invoice_id=str(event.get("invoiceId", "")),
                outcome="processing",
            )
            try:
                outcome = _apply(event)
            except (ApplicationError, ValueError) as error:
                # Recorded and acknowledged: retrying the same event would fail the same way.
                outcome = f"not applied: {error}"
            WebhookDelivery.objects.filter(pk=delivery.pk).update(outcome=outcome[:200])
    except IntegrityError:
        return "duplicate delivery: nothing changed"
    logger.info("btcpay webhook %s: %s", key, outcome)
    return outcome
