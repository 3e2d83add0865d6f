"""The receipt PDF says what the receipt page says (QA walk: an unpaid order's PDF printed "Term" twice, the second
"- - -", and a "Ledger references" heading with nothing under it where the page says there is no movement yet)."""

import pytest
from django.urls import reverse

from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.received.verification import intent_confirm
from gpurent.payments.tests.test_receipts import pdf_text

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language", ["en", "tr"])
def test_an_unpaid_orders_pdf_has_one_term_and_says_no_ledger_movement_yet(client, customer, order, language):
    client.force_login(customer)
    page = client.get(reverse("payments:receipt", args=[order.ref]), HTTP_ACCEPT_LANGUAGE=language)
    pdf = pdf_text(client.get(reverse("payments:receipt_pdf", args=[order.ref]), HTTP_ACCEPT_LANGUAGE=language).content)
    html = page.content.decode()
    term = page.context["receipt"].order.term.label
    assert html.count(f"<dd>{term}</dd>") == 1
    assert pdf.count(str(term)) == 1
    assert " - - " not in pdf
    assert "- -" not in pdf
    empty = html.split('data-testid="receipt-references">')[1].split("</li>")[0].split(">")[-1]
    assert empty  # the page's "No ledger movement yet." in the reader's language
    assert empty in pdf


def test_a_paid_orders_pdf_has_the_terms_dates_and_its_ledger_references(client, customer, order):
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    intent_confirm(intent_id=intent.pk, txid="tron-pdf-tx", received_units=intent.amount_units)
    client.force_login(customer)
    pdf = pdf_text(client.get(reverse("payments:receipt_pdf", args=[order.ref])).content)
    assert "No ledger movement yet." not in pdf
    assert f"Order {order.ref}" in pdf
    assert "7 days" in pdf
