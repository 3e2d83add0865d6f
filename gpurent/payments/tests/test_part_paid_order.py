"""A part-paid order shows what was received for it and where that money is, from the ledger rows: the page,
the API, the CSV, the printable summary and the credited e-mail (not "Paid $0.00" and nothing else)."""

import csv
import io

import pytest
from django.urls import reverse

from gpurent.accounts.services import api_token_create
from gpurent.core.models import OutboundEmail
from gpurent.ledger.models import LedgerTransfer
from gpurent.ledger.services import transfer_reverse
from gpurent.orders.models import Order
from gpurent.orders.services import order_cancel
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import Payment
from gpurent.payments.received.receive import payment_receive

pytestmark = pytest.mark.django_db


def pay_half(order, customer):
    """Send half of the instructions' amount: $205.00 of the $410.00 order is credited to the balance."""
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    payment_receive(intent_id=intent.pk, txid="tx-half", amount_units=intent.amount_units // 2, source="operator")
    return intent


def order_page(client, customer, order):
    client.force_login(customer)
    return client.get(reverse("orders:rental", args=[order.ref])).content.decode()


def test_part_paid_order_page_shows_the_received_money_in_the_balance(client, customer, order):
    pay_half(order, customer)
    page = order_page(client, customer, order)
    assert Order.objects.get(pk=order.pk).payment_status == "awaiting_payment"
    assert '<dd data-testid="order-paid">$0.00</dd>' in page
    assert '<dd data-testid="order-received">$205.00</dd>' in page
    assert (
        "$205.00 received for this order is in your balance. It pays this order as soon as your balance covers "
        "the total; until then you can also withdraw it."
    ) in page


def test_part_paid_order_in_the_api_has_received_apart_from_paid(client, customer, order):
    pay_half(order, customer)
    _, secret = api_token_create(user=customer, name="laptop")
    auth = {"HTTP_AUTHORIZATION": f"Bearer {secret}"}
    one = client.get(f"/api/v1/orders/{order.ref}", **auth).json()
    listed = client.get("/api/v1/orders", **auth).json()["items"][0]
    for data in (one, listed):
        assert (data["paid_usd"], data["received_usd"], data["refunded_usd"]) == ("0.00", "205.00", "0.00")


def test_part_paid_order_in_the_csv_and_the_printable_summary(client, customer, order):
    pay_half(order, customer)
    client.force_login(customer)
    rows = list(csv.DictReader(io.StringIO(client.get(reverse("orders:rentals_csv")).content.decode())))
    assert (rows[0]["paid_usd"], rows[0]["received_usd"], rows[0]["refunded_usd"]) == ("0.00", "205.00", "0.00")
    printable = client.get(reverse("orders:rentals_printable")).content.decode()
    assert "$0.00<br>$205.00 received, in your balance" in printable


def test_part_payment_email_says_how_much_arrived_and_that_the_order_is_unpaid(customer, order):
    pay_half(order, customer)
    payment = Payment.objects.get(txid="tx-half")
    paragraphs = OutboundEmail.objects.get(key=f"payment_credited:{payment.pk}").context["paragraphs"]
    assert paragraphs[-1] == (
        f"So far $205.00 of the $410.00 for order {order.ref} has been received. The order is not paid yet: the "
        "money is in your balance and pays the order as soon as your balance covers the total; until then you "
        "can also withdraw it."
    )


def test_a_part_payment_that_the_balance_tops_up_does_not_say_the_order_is_unpaid(customer, order):
    """Money already in the balance plus a part payment cover the total: the order is paid in the same
    transaction, so the credited e-mail must not say "not paid yet" next to the order-paid e-mail."""
    from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post

    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    transfer_post(  # money that arrived for something else after the instructions were issued
        reference="deposit:EARLIER",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=order.total,
    )
    payment_receive(intent_id=intent.pk, txid="tx-half", amount_units=intent.amount_units // 2, source="operator")
    assert Order.objects.get(pk=order.pk).payment_status == "paid"
    payment = Payment.objects.get(txid="tx-half")
    last = OutboundEmail.objects.get(key=f"payment_credited:{payment.pk}").context["paragraphs"][-1]
    assert last == "If it pays an order, the order is paid from your balance as soon as the balance covers it."


def test_the_rest_of_the_payment_pays_the_order_and_nothing_is_left_in_the_balance(client, customer, order):
    intent = pay_half(order, customer)
    rest = intent.amount_units - intent.amount_units // 2
    payment_receive(intent_id=intent.pk, txid="tx-rest", amount_units=rest, source="operator")
    page = order_page(client, customer, order)
    assert Order.objects.get(pk=order.pk).payment_status == "paid"
    assert '<dd data-testid="order-paid">$410.00</dd>' in page
    assert '<dd data-testid="order-received">$410.00</dd>' in page
    assert 'data-testid="order-in-balance"' not in page
    payment = Payment.objects.get(txid="tx-rest")
    last = OutboundEmail.objects.get(key=f"payment_credited:{payment.pk}").context["paragraphs"][-1]
    assert last == "If it pays an order, the order is paid from your balance as soon as the balance covers it."


def test_a_cancelled_part_paid_order_says_the_money_can_pay_another_order(client, customer, order):
    pay_half(order, customer)
    order_cancel(order=Order.objects.get(pk=order.pk), actor=customer, confirmed=True)
    page = order_page(client, customer, order)
    assert "$205.00 received for this order is in your balance: use it for another order or withdraw it." in page


def test_a_reversed_credit_no_longer_counts_as_received(client, customer, order):
    pay_half(order, customer)
    deposit = LedgerTransfer.objects.get(reference__startswith="deposit:")
    transfer_reverse(transfer=deposit, memo="credited by mistake")
    page = order_page(client, customer, order)
    assert 'data-testid="order-received"' not in page
    assert 'data-testid="order-in-balance"' not in page


def test_the_paid_amount_is_labelled_as_an_amount_not_as_the_status_in_turkish(client, customer, order):
    """Turkish writes the status "Ödendi" (it was paid) and the amount "Ödenen" (the paid amount)."""
    client.force_login(customer)
    page = client.get(reverse("orders:rental", args=[order.ref]), HTTP_ACCEPT_LANGUAGE="tr").content.decode()
    assert '<dt>Ödenen</dt><dd data-testid="order-paid">$0,00</dd>' in page
