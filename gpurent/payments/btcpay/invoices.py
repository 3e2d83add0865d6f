"""Intents paid through BTCPay Server: the Greenfield invoice is created after the intent is committed.

The order (docs/decisions/0147): `intent_issue_for_*` commits the intent with `processor="btcpay"` and no
address, holding the order's and the account's locks only for that transaction. The caller then calls
`intent_prepare` with no transaction open: it asks BTCPay for the invoice and its address (HTTP, no lock
held), and stores the invoice id, the address and the checkout link in a second, short transaction. Webhooks
find the intent by that invoice id (`webhooks.py`).

When BTCPay cannot create the invoice (down, refused, an answer we cannot read), the intent is closed in that
second transaction (it was never shown, so nothing can be paid to it, and it stops holding the customer's
balance) and `ProcessorUnavailable` tells the customer to try again or pick another network. No other address is
given out instead: operators who route a network through BTCPay have no addresses of their own loaded for it.
Calling `intent_prepare` again (a replayed request) finishes an intent whose preparation was interrupted.
"""

from __future__ import annotations

import logging
from datetime import datetime
from uuid import UUID

from django.conf import settings
from django.db import transaction
from django.db.transaction import TransactionManagementError
from django.urls import reverse
from django.utils import timezone, translation

from ..addresses import validate_address
from ..assets import format_units, pair_get, parse_units
from ..errors_crypto import InvalidAddress
from ..models import IntentStatus, PaymentIntent
from .client import BTCPAY, BTCPAY_NETWORKS, GreenfieldClient, GreenfieldInvoice, ProcessorUnavailable, btcpay_client

__all__ = ["intent_prepare"]

logger = logging.getLogger(__name__)


def intent_prepare(
    intent_id: UUID | str, *, client: GreenfieldClient | None = None, now: datetime | None = None
) -> PaymentIntent:
    """Give a processor-routed intent its BTCPay invoice; any other intent is returned as it is.

    For an intent that needs an invoice it must be called with no transaction open (the HTTP call must not run
    under a lock).

    Raises:
        TransactionManagementError: called inside a transaction.
        ProcessorUnavailable: BTCPay did not create a usable invoice; the intent is closed (see the module).
    """
    intent = PaymentIntent.objects.select_related("order", "deposit").get(pk=intent_id)
    if intent.processor != BTCPAY or intent.processor_invoice_id:
        return intent
    if transaction.get_connection().in_atomic_block:
        raise TransactionManagementError("intent_prepare calls BTCPay Server: run it after the intent's commit")
    now = now or timezone.now()
    if intent.status != IntentStatus.AWAITING_PAYMENT or intent.expires_at <= now:
        # Closed by an earlier failure, or interrupted and expired since: new instructions are needed.
        raise ProcessorUnavailable()
    try:
        invoice = _invoice_for(intent, client or btcpay_client(), now)
    except ProcessorUnavailable as error:
        logger.warning("intent %s: no BTCPay invoice: %s", intent.pk, error.detail)
        with transaction.atomic():
            PaymentIntent.objects.filter(
                pk=intent.pk, processor_invoice_id="", status=IntentStatus.AWAITING_PAYMENT
            ).update(status=IntentStatus.CLOSED)
        raise
    with transaction.atomic():
        stored = PaymentIntent.objects.filter(pk=intent.pk, processor_invoice_id="").update(
            processor_invoice_id=invoice.invoice_id, address=invoice.destination, checkout_link=invoice.checkout_link
        )
    if not stored:
        # A replay of the same request prepared it at the same moment: its invoice is the one shown; this one
        # is never shown and expires unpaid at BTCPay (its webhooks do not match the intent).
        logger.warning(
            "intent %s: BTCPay invoice %s not used (another was stored first)", intent.pk, invoice.invoice_id
        )
    intent.refresh_from_db()
    return intent


def _invoice_for(intent: PaymentIntent, client: GreenfieldClient, now: datetime) -> GreenfieldInvoice:
    pair = pair_get(intent.asset, intent.network)
    currency = BTCPAY_NETWORKS[intent.network]
    # Whole minutes is what the API takes: rounded, BTCPay's expiry is ours to within the seconds this call took.
    # Ours decides (a payment after `expires_at` goes to review); BTCPay keeps reporting payments after it.
    minutes = max(1, round((intent.expires_at - now).total_seconds() / 60))
    answer = client.invoice_create(
        reference=str(intent.pk),
        amount=format_units(intent.amount_units, pair),
        currency=currency,
        expiration_minutes=minutes,
        description=_description(intent),
        redirect_url=_back_url(intent),
        language=translation.get_language() or settings.LANGUAGE_CODE,
    )
    checkout_link = str(answer.get("checkoutLink") or "")
    if not checkout_link.startswith(("https://", "http://")) or len(checkout_link) > 500:
        raise ProcessorUnavailable(detail=f"invoice {answer['id']}: no usable checkout link")
    destination, asked = client.invoice_destination(str(answer["id"]), currency)
    try:
        address = validate_address(intent.network, destination)
    except InvalidAddress:
        raise ProcessorUnavailable(
            detail=f"invoice {answer['id']}: its address is not a {intent.network} address"
        ) from None
    if asked is not None and _units_or_none(asked, intent) != intent.amount_units:
        # A store that adds a network fee asks more than the quote; the customer still pays ours (the amount shown).
        logger.warning("intent %s: BTCPay asks %s %s, the intent %s", intent.pk, asked, currency, answer.get("amount"))
    return GreenfieldInvoice(invoice_id=str(answer["id"]), checkout_link=checkout_link, destination=address)


def _units_or_none(amount: object, intent: PaymentIntent) -> int | None:
    try:
        return parse_units(str(amount), pair_get(intent.asset, intent.network))
    except ValueError:
        return None


def _description(intent: PaymentIntent) -> str:
    if intent.order is not None:
        return f"{settings.BRAND_NAME} order {intent.order.ref}"
    return f"{settings.BRAND_NAME} top-up {intent.deposit.ref if intent.deposit else ''}"


def _back_url(intent: PaymentIntent) -> str:
    if intent.order is not None:
        path = reverse("orders:rental", args=[intent.order.ref])
    else:
        path = reverse("payments:deposit", args=[intent.deposit.ref if intent.deposit else ""])
    return settings.SITE_URL.rstrip("/") + path
