"""An order's history reads in the reader's language, the notes the shop writes included (issue 29: "(payment
reported: … on Tron (TRC-20))" and "(extends R-…)" in English on every page). Stored notes stay English."""

import pytest
from django.urls import reverse
from django.utils import translation

from gpurent.orders.history_notes import CANCELLED_BY_CUSTOMER, extends_note, note_text
from gpurent.orders.models import OrderStatusChange
from gpurent.payments.intents.lifecycle import intent_issue_for_order, intent_report

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("en", "(payment reported: 410 USDT on Tron (TRC-20))"),
        ("es", "(pago notificado: 410 USDT en Tron (TRC-20))"),
        ("vi", "(đã báo thanh toán: 410 USDT trên mạng lưới Tron (TRC-20))"),
        ("tr", "(ödeme bildirildi: Tron (TRC-20) ağında 410 USDT)"),
    ],
)
def test_a_reported_payment_reads_in_the_pages_language(client, customer, order, language, shown, settings):
    settings.CHAIN_WATCH_URLS = {"tron": "http://127.0.0.1:1/"}
    intent_report(intent=intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron"))
    stored = OrderStatusChange.objects.get(order=order, reason__startswith="payment reported")
    assert stored.reason == "payment reported: 410.000000 USDT on Tron (TRC-20)"  # the record stays English
    client.force_login(customer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    assert shown in page
    if language != "en":
        assert "payment reported" not in page


def test_a_crypto_amount_in_a_note_has_the_languages_decimal_mark():
    with translation.override("es"):
        assert note_text("payment reported: 0.00150000 BTC on Bitcoin") == "pago notificado: 0,0015 BTC en Bitcoin"


@pytest.mark.parametrize(
    ("language", "extends", "cancelled"),
    [("es", "prórroga de R-ABC123", "cancelado por el cliente"), ("vi", "gia hạn R-ABC123", "khách hàng đã hủy")],
)
def test_the_shops_own_notes_are_translated_and_an_operators_text_is_kept(language, extends, cancelled):
    with translation.override(language):
        assert note_text(extends_note("R-ABC123")) == extends
        assert note_text(CANCELLED_BY_CUSTOMER) == cancelled
        assert note_text("disk full on host 3") == "disk full on host 3"
