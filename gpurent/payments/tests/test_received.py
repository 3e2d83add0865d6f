"""A payment is a row: recorded once per (network, txid, index), credited exactly once, never lost (issue 10).

Each test names the numbered problem of the issue it pins; each failed on the code before payments were rows.
"""

import json
import uuid
from datetime import timedelta

import pytest
from django.db import transaction

from gpurent.core.errors import InvalidRequest
from gpurent.core.locks import lock_rows
from gpurent.core.money import Usd
from gpurent.ledger.models import LedgerAccount
from gpurent.ledger.selectors import balance_for, ledger_check
from gpurent.orders.models import Order
from gpurent.orders.services import order_cancel
from gpurent.payments.btcpay.webhooks import btcpay_signature
from gpurent.payments.errors import PaymentAlreadyCredited
from gpurent.payments.intents.lifecycle import intent_issue_for_deposit, intent_issue_for_order
from gpurent.payments.models import Deposit, Payment, PaymentIntent
from gpurent.payments.received.receive import payment_receive
from gpurent.payments.received.verification import intent_reject, intents_expire_due
from gpurent.payments.services import deposit_create

pytestmark = pytest.mark.django_db

SECRET = "received-test-secret"


def usdt(order, customer):
    return intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")


def receive(intent, txid, units, **extra):
    return payment_receive(intent_id=intent.pk, txid=txid, amount_units=units, source="operator", **extra)


def webhook(client, intent, delivery, payment_id, value, kind="InvoicePaymentSettled"):
    body = json.dumps(
        {
            "deliveryId": delivery,
            "type": kind,
            "invoiceId": "inv-1",
            "metadata": {"orderId": str(intent.pk)},
            "payment": {"id": payment_id, "value": value, "status": "Settled"},
        }
    ).encode()
    return client.post(
        "/api/v1/webhooks/btcpay",
        body,
        content_type="application/json",
        HTTP_BTCPAY_SIG=btcpay_signature(body, SECRET),
    )


# --- 1. One transaction credits several intents ---------------------------------------------------------------


def test_same_txid_for_two_intents_is_credited_once(customer, order):
    first = deposit_create(owner=customer, amount=Usd(5_000))
    second = deposit_create(owner=customer, amount=Usd(5_000))
    a = intent_issue_for_deposit(deposit=first, owner=customer, asset="USDT", network="tron")
    b = intent_issue_for_deposit(deposit=second, owner=customer, asset="USDT", network="tron")
    receive(a, "ab" * 32, a.amount_units)
    with pytest.raises(PaymentAlreadyCredited) as raised:
        receive(b, "AB" * 32, b.amount_units)  # an operator's typo: the same transaction, another case
    assert (raised.value.code, raised.value.status) == ("payment_already_credited", 409)
    assert balance_for(customer) == Usd(5_000)
    assert Payment.objects.count() == 1
    assert ledger_check() == []


def test_same_txid_again_for_the_same_intent_and_amount_changes_nothing(customer, order):
    intent = usdt(order, customer)
    first = receive(intent, "tx-1", 100_000_000)
    again = receive(intent, "tx-1", 100_000_000)
    assert again.pk == first.pk
    assert balance_for(customer) == Usd(10_000)


def test_same_txid_on_another_output_is_another_payment(customer, order):
    intent = usdt(order, customer)
    receive(intent, "tx-1", 100_000_000, output_index=0)
    receive(intent, "tx-1", 100_000_000, output_index=1)
    assert balance_for(customer) == Usd(20_000)


def test_a_webhook_with_an_already_recorded_payment_credits_nothing(client, settings, customer, order):
    settings.BTCPAY_WEBHOOK_SECRET = SECRET
    first = deposit_create(owner=customer, amount=Usd(5_000))
    a = intent_issue_for_deposit(deposit=first, owner=customer, asset="USDT", network="tron")
    b = usdt(order, customer)
    receive(a, "cd" * 32, a.amount_units, output_index=3)
    response = webhook(client, b, "d-1", f"{'cd' * 32}-3", "50.000000")
    assert response.status_code == 200
    assert "payment_already_credited" not in response.json()["status"]  # the message, not the code
    assert "already recorded" in response.json()["status"]
    assert balance_for(customer) == Usd(5_000)


def test_a_payment_on_another_network_than_its_intent_is_refused(customer, order):
    intent = usdt(order, customer)
    with pytest.raises(InvalidRequest):
        receive(intent, "tx-1", 100, network="ethereum")
    assert not Payment.objects.exists()


# --- 2. A second payment to the same intent is never credited -------------------------------------------------


def test_two_part_payment_to_one_intent_credits_both_and_pays_the_order(customer, order):
    intent = usdt(order, customer)
    receive(intent, "tx-1", 200_000_000)
    assert PaymentIntent.objects.get(pk=intent.pk).status == "awaiting_payment"  # still open for the rest
    assert Order.objects.get(pk=order.pk).payment_status == "awaiting_payment"
    receive(intent, "tx-2", 210_000_000)
    assert PaymentIntent.objects.get(pk=intent.pk).status == "confirmed"
    assert Order.objects.get(pk=order.pk).payment_status == "paid"
    assert balance_for(customer) == Usd(0)
    assert ledger_check() == []


def test_a_payment_to_a_confirmed_intent_is_credited_to_the_balance(customer, order):
    intent = usdt(order, customer)
    receive(intent, "tx-1", intent.amount_units)
    receive(intent, "tx-2", 5_000_000)
    assert balance_for(customer) == Usd(500)


def test_btcpay_invoice_with_two_settled_payments_credits_both(client, settings, customer, order):
    settings.BTCPAY_WEBHOOK_SECRET = SECRET
    intent = usdt(order, customer)
    tx_a, tx_b = "a1" * 32, "b2" * 32
    assert webhook(client, intent, "d-1", f"{tx_a}-0", "300.000000").json() == {"status": "payment credited"}
    assert webhook(client, intent, "d-2", f"{tx_b}-1", "110.000000").json() == {"status": "payment credited"}
    assert Order.objects.get(pk=order.pk).payment_status == "paid"
    assert sorted(Payment.objects.values_list("txid", "output_index", "source")) == [
        (tx_a, 0, "processor"),
        (tx_b, 1, "processor"),
    ]


def test_invalid_then_settled_invoice_puts_the_payment_in_review_not_nowhere(client, settings, customer, order):
    settings.BTCPAY_WEBHOOK_SECRET = SECRET
    intent = usdt(order, customer)
    webhook(client, intent, "d-1", "x", "1", kind="InvoiceInvalid")
    response = webhook(client, intent, "d-2", "tx-late-0", "410.000000")
    assert response.json() == {"status": "payment review"}
    assert PaymentIntent.objects.get(pk=intent.pk).status == "review"
    assert Payment.objects.get().state == "review"


def test_dust_neither_closes_the_intent_nor_is_lost(customer, order):
    intent = usdt(order, customer)
    dust = receive(intent, "tx-dust-1", 1_000)  # 0.001 USDT: a tenth of a cent
    assert (dust.state, dust.credited_cents, dust.deposit) == ("credited", 0, None)
    assert PaymentIntent.objects.get(pk=intent.pk).status == "awaiting_payment"
    for index in range(2, 11):  # ten tenths of a cent make one cent: carried, not rounded away each time
        receive(intent, f"tx-dust-{index}", 1_000)
    assert balance_for(customer) == Usd(1)
    assert ledger_check() == []


def test_late_payment_goes_to_review_and_the_customer_is_told(customer, order):
    intent = usdt(order, customer)
    payment = receive(intent, "tx-late", intent.amount_units, now=intent.expires_at + timedelta(seconds=1))
    assert payment.state == "review"
    assert balance_for(customer) == Usd(0)
    from gpurent.core.models import OutboundEmail

    assert OutboundEmail.objects.filter(key=f"late_payment_received:{payment.pk}", to=customer.email).exists()


def test_rejecting_an_intent_declines_its_review_payments(customer, order):
    intent = usdt(order, customer)
    receive(intent, "tx-late", intent.amount_units, now=intent.expires_at)
    intent_reject(intent_id=intent.pk, reason="not ours")
    assert Payment.objects.get().state == "rejected"
    assert not Deposit.objects.filter(status="credited").exists()


# --- Issue 32: the first-seen time decides whether the locked rate applies ---------------------------------------


def test_a_payment_first_seen_before_expiry_and_confirmed_after_it_is_credited_at_the_locked_rate(customer, order):
    intent = usdt(order, customer)
    intents_expire_due(now=intent.expires_at)
    payment = receive(
        intent,
        "tx-1",
        intent.amount_units,
        seen_at=intent.expires_at - timedelta(seconds=1),
        now=intent.expires_at + timedelta(minutes=15),  # a mainnet payment sent in the quote's last minute
    )
    assert (payment.state, payment.at_locked_rate, payment.credited_cents) == ("credited", True, intent.usd_cents)
    assert PaymentIntent.objects.get(pk=intent.pk).status == "confirmed"
    assert Order.objects.get(pk=order.pk).payment_status == "paid"
    assert ledger_check() == []


def test_a_payment_first_seen_at_or_after_expiry_goes_to_review(customer, order):
    intent = usdt(order, customer)
    payment = receive(
        intent, "tx-1", intent.amount_units, seen_at=intent.expires_at, now=intent.expires_at + timedelta(minutes=1)
    )
    assert payment.state == "review"
    assert PaymentIntent.objects.get(pk=intent.pk).status == "review"
    assert balance_for(customer) == Usd(0)


def test_a_payment_first_seen_before_expiry_goes_to_review_once_confirmed_past_the_late_window(
    customer, order, settings
):
    settings.PAYMENTS_LATE_CONFIRMATION_HOURS = 2
    first, second = usdt(order, customer), usdt(order, customer)
    seen = first.expires_at - timedelta(minutes=1)
    on_time = receive(first, "tx-1", 1_000_000, seen_at=seen, now=first.expires_at + timedelta(hours=2))
    late = receive(second, "tx-2", 1_000_000, seen_at=seen, now=second.expires_at + timedelta(hours=2, seconds=1))
    assert (on_time.state, late.state) == ("credited", "review")


def test_a_first_seen_time_after_the_recording_counts_as_the_recording(customer, order):
    intent = usdt(order, customer)
    payment = receive(intent, "tx-1", intent.amount_units, seen_at=intent.expires_at + timedelta(hours=1))
    assert payment.state == "credited"  # recorded now, before expiry: a clock ahead never sends it to review


# --- 3. Other intents stay live after the order is paid ---------------------------------------------------------


def test_paying_the_order_closes_its_other_intents_and_later_payments_reach_the_balance(customer, order):
    first, second = usdt(order, customer), usdt(order, customer)
    receive(first, "tx-1", first.amount_units)
    assert PaymentIntent.objects.get(pk=second.pk).status == "closed"
    receive(second, "tx-2", second.amount_units)  # sent anyway, before it expired
    assert balance_for(customer) == Usd(second.usd_cents)
    assert Payment.objects.get(txid="tx-2").state == "credited"


def test_cancelling_the_order_closes_its_intents(customer, order):
    intent = usdt(order, customer)
    order_cancel(order=order, actor=customer)
    assert PaymentIntent.objects.get(pk=intent.pk).status == "closed"


# --- 6. One lock order -----------------------------------------------------------------------------------------


def test_lock_rows_refuses_to_lock_out_of_order(customer, order):
    with pytest.raises(ValueError, match="lock order"), transaction.atomic():
        lock_rows((LedgerAccount, [1]), (Order, [order.pk]))


def test_an_unknown_intent_is_not_found():
    from gpurent.core.errors import NotFound

    with pytest.raises(NotFound):
        payment_receive(intent_id=uuid.uuid4(), txid="tx", amount_units=1, source="chain")
