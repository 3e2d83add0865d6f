"""QA walk 2 (after payment): one name for the crypto received for an order, the receipt on a phone, its two term
rows, no "receipt" before anything was paid, and "UTC" on the phone's ledger cards."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from gpurent.orders.models import Order
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import Payment
from gpurent.payments.received.verification import intent_confirm
from gpurent.payments.tests.test_receipts import pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def paid_order(order, customer):
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    intent_confirm(intent_id=intent.pk, txid="f" * 64, received_units=intent.amount_units)
    order.refresh_from_db()
    return order


def test_crypto_received_for_an_order_is_never_called_a_top_up(client, customer, paid_order):
    deposit = Payment.objects.get(intent__order=paid_order).deposit
    assert deposit is not None
    client.force_login(customer)
    shown = f'data-reference="deposit:{deposit.ref}">Payment received <code>{deposit.ref}</code>'
    for url in [
        reverse("payments:balance"),
        reverse("orders:rental", args=[paid_order.ref]),
        reverse("payments:receipt", args=[paid_order.ref]),
    ]:
        html = client.get(url).content.decode()
        assert shown in html, url
        assert "Deposit" not in html, url
    pdf = pdf_text(client.get(reverse("payments:receipt_pdf", args=[paid_order.ref])).content)
    assert f"Payment received {deposit.ref}" in pdf
    assert "Deposit" not in pdf
    page = client.get(reverse("payments:deposit", args=[deposit.ref])).content.decode()
    assert f"<title>Payment received {deposit.ref}" in page
    assert "Top-up" not in page


def test_a_top_ups_page_is_still_called_a_top_up(client, customer, payment_setup):
    client.force_login(customer)
    response = client.post(reverse("payments:top_up"), {"amount_usd": "120.00", "idempotency_key": "t1"})
    assert "<h1>Top-up " in client.get(response["Location"]).content.decode()


def test_receipt_payments_are_cards_on_a_phone(client, customer, paid_order):
    client.force_login(customer)
    html = client.get(reverse("payments:receipt", args=[paid_order.ref])).content.decode()
    table = html.split('data-testid="receipt-payments"')[1].split("</table>")[0]
    assert 'class="data-table stack-table"' in html.split('data-testid="receipt-payments"')[0][-60:]
    row = table.split("<tbody>")[1]
    assert row.count("<td") == 6
    assert row.count("<td data-label=") == 6
    assert '<td data-label="Transaction id"><code class="txid">' + "f" * 64 in row


def test_receipt_names_the_terms_length_and_its_dates_apart(client, customer, paid_order):
    start = timezone.now()
    Order.objects.filter(pk=paid_order.pk).update(term_starts_at=start, term_ends_at=start + timedelta(days=7))
    client.force_login(customer)
    html = client.get(reverse("payments:receipt", args=[paid_order.ref])).content.decode()
    assert html.count("<dt>Term</dt>") == 1
    assert html.count("<dt>Term dates</dt>") == 1
    pdf = pdf_text(client.get(reverse("payments:receipt_pdf", args=[paid_order.ref])).content)
    assert pdf.count("Term dates") == 1
    assert pdf.replace("Term dates", "").count("Term") == 1


def test_an_unpaid_order_offers_no_receipt_and_its_page_says_it_is_none(client, customer, order):
    client.force_login(customer)
    assert 'data-testid="receipt-links"' not in client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    html = client.get(reverse("payments:receipt", args=[order.ref])).content.decode()
    assert f"<title>Order {order.ref}: nothing paid yet" in html
    assert "Receipt for order" not in html
    assert "Nothing has been paid for this order yet, so this is not a receipt." in html
    pdf = pdf_text(client.get(reverse("payments:receipt_pdf", args=[order.ref])).content)
    assert f"Order {order.ref}: nothing paid yet" in pdf
    assert "Receipt for order" not in pdf


def test_a_paid_order_offers_its_receipt(client, customer, paid_order):
    client.force_login(customer)
    html = client.get(reverse("orders:rental", args=[paid_order.ref])).content.decode()
    assert 'data-testid="receipt-links"' in html
    receipt = client.get(reverse("payments:receipt", args=[paid_order.ref])).content.decode()
    assert f"<title>Receipt for order {paid_order.ref}" in receipt
    assert "nothing paid yet" not in receipt


def test_ledger_cards_say_their_times_are_utc(client, customer, paid_order):
    client.force_login(customer)
    html = client.get(reverse("payments:balance")).content.decode()
    rows = html.split('data-testid="ledger"')[1].split("<tbody>")[1].split("</tbody>")[0]
    assert rows.count("<tr>") == rows.count('<td data-label="When (UTC)">') == 2
    printable = client.get(reverse("orders:rentals_printable")).content.decode()
    statement = printable.split('data-testid="balance-statement"')[1].split("<tbody>")[1]
    assert '<td data-label="When (UTC)">' in statement
