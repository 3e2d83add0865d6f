"""The receipt of an order (HTML, PDF, API): terms, each payment with asset, network, amount, rate and txid,
balance use, refunds and every ledger reference; only for the owner."""

import io

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from gpurent.core.formats import date_text
from gpurent.orders.provisioning import provision_fail, provision_start
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import Payment
from gpurent.payments.received.verification import intent_confirm

pytestmark = pytest.mark.django_db


def pdf_text(content: bytes) -> str:
    """The text a PDF reader extracts (pypdf maps the embedded font's glyphs back to Unicode)."""
    assert content.startswith(b"%PDF-")
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


@pytest.fixture
def paid_then_refunded(order, customer):
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    intent_confirm(intent_id=intent.pk, txid="tron-receipt-tx-1", received_units=intent.amount_units)
    order.refresh_from_db()
    provision_fail(order=provision_start(order=order, actor=None), actor=None, reason="no machine")
    return order


def test_receipt_page_lists_payment_balance_refund_and_references(client, customer, paid_then_refunded):
    order = paid_then_refunded
    payment = Payment.objects.get(intent__order=order)
    assert payment.deposit is not None
    client.force_login(customer)
    page = client.get(reverse("payments:receipt", args=[order.ref])).content.decode()
    for text in [
        order.ref,
        "IteraGPU",
        "tron-receipt-tx-1",
        "410 USDT",
        "Tron",
        "1 USDT = 1 USD",
        "$410.00",
    ]:
        assert text in page, text
    # Each ledger reference as a word and the ref to quote; the machine reference stays in data-reference.
    for reference, shown in [
        (f"deposit:{payment.deposit.ref}", f"Payment received <code>{payment.deposit.ref}</code>"),
        (f"order:{order.ref}", f"Order <code>{order.ref}</code>"),
        (f"refund:{order.ref}", f"Refund <code>{order.ref}</code>"),
    ]:
        assert f'<span class="ledger-ref" data-reference="{reference}">{shown}</span>' in page, reference
    assert (
        reverse("payments:receipt_pdf", args=[order.ref])
        in client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    )


def test_receipt_pdf_has_every_reference_and_is_a_download(client, customer, paid_then_refunded):
    order = paid_then_refunded
    payment = Payment.objects.get(intent__order=order)
    assert payment.deposit is not None
    client.force_login(customer)
    response = client.get(reverse("payments:receipt_pdf", args=[order.ref]))
    assert response["Content-Type"] == "application/pdf"
    assert f'filename="receipt-{order.ref}.pdf"' in response["Content-Disposition"]
    text = pdf_text(response.content)
    for reference in [order.ref, "tron-receipt-tx-1", f"Payment received {payment.deposit.ref}", f"Refund {order.ref}"]:
        assert reference in text, reference
    assert "deposit:" not in text
    api = client.get(f"/api/v1/orders/{order.ref}/receipt.pdf")
    assert api.status_code == 200
    assert f"Order {order.ref}" in pdf_text(api.content)


def test_receipt_is_the_owners_only(client, django_user_model, order):
    stranger = django_user_model.objects.create_user("x@example.com", "passphrase 12", first_name="X", last_name="Y")
    client.force_login(stranger)
    assert client.get(reverse("payments:receipt", args=[order.ref])).status_code == 404
    assert client.get(reverse("payments:receipt_pdf", args=[order.ref])).status_code == 404
    assert client.get(f"/api/v1/orders/{order.ref}/receipt.pdf").status_code == 404


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("vi", ["Biên nhận cho đơn hàng", "Đã trả", "Thanh toán"]),
        ("tr", ["Ödendi", "siparişinin makbuzu", "Ödeme"]),
        ("es", ["Recibo", "Pagado"]),
    ],
)
def test_receipt_pdf_keeps_every_letter_of_the_customers_language(client, customer, order, language, words):
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    intent_confirm(intent_id=intent.pk, txid="tron-receipt-tx-2", received_units=intent.amount_units)
    client.force_login(customer)
    response = client.get(reverse("payments:receipt_pdf", args=[order.ref]), HTTP_ACCEPT_LANGUAGE=language)
    text = pdf_text(response.content)
    for word in words:
        assert word in text, (word, text)


def test_receipt_pdf_writes_counts_money_and_dates_as_the_customers_language_does(client, customer, order):
    """Issue 29: the PDF said "(2 GPUs)", "$410.00" and "2026-12-05 14:00 UTC" in Spanish."""
    client.force_login(customer)
    response = client.get(reverse("payments:receipt_pdf", args=[order.ref]), HTTP_ACCEPT_LANGUAGE="es")
    text = pdf_text(response.content)
    with translation.override("es"):
        placed = date_text(order.created_at, time=True, zone=True)
    assert f"({order.cards} GPU)" in text
    assert "GPUs" not in text
    assert "7 días" in text
    assert "410,00 US$" in text
    assert "$410.00" not in text
    assert placed in text, (placed, text)


def test_a_direct_crypto_payment_is_not_called_paid_from_the_balance(client, customer, paid_then_refunded):
    order = paid_then_refunded
    client.force_login(customer)
    page = client.get(reverse("payments:receipt", args=[order.ref])).content.decode()
    assert '<dd data-testid="receipt-crypto">$410.00</dd>' in page
    assert '<dd data-testid="receipt-balance">$0.00</dd>' in page
    assert "1.000000000000" not in page
    text = pdf_text(client.get(reverse("payments:receipt_pdf", args=[order.ref])).content)
    assert "Paid in crypto $410.00" in text.replace("\n", " ")
    assert "1 USDT = 1 USD" in text


def test_receipt_references_read_in_the_customers_language(client, customer, paid_then_refunded):
    """Decision 0441: "Pago recibido D-…", "Pedido R-…", "Reembolso R-…" on the Spanish receipt, page and PDF."""
    order = paid_then_refunded
    payment = Payment.objects.get(intent__order=order)
    assert payment.deposit is not None
    client.force_login(customer)
    page = client.get(reverse("payments:receipt", args=[order.ref]), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert f'data-reference="refund:{order.ref}">Reembolso <code>{order.ref}</code>' in page
    pdf = pdf_text(client.get(reverse("payments:receipt_pdf", args=[order.ref]), HTTP_ACCEPT_LANGUAGE="es").content)
    for shown in [f"Pago recibido {payment.deposit.ref}", f"Pedido {order.ref}", f"Reembolso {order.ref}"]:
        assert shown in pdf, (shown, pdf)
    assert "deposit:" not in pdf
    assert "refund:" not in pdf
