"""Edges of the money path from issue 10: rates read outside locks, reports that hold stock, unpaid-order limits,
closed intents on screen and in the API."""

from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from gpurent.core.money import Usd
from gpurent.orders.errors import TooManyUnpaidOrders
from gpurent.orders.models import Order
from gpurent.orders.services import Contact, order_place
from gpurent.payments import rates
from gpurent.payments.received import payment_receive
from gpurent.payments.services import deposit_create, intent_issue_for_deposit, intent_issue_for_order, intent_report

pytestmark = pytest.mark.django_db


def usdt(order, customer):
    return intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")


# --- 7. A network call inside a lock ----------------------------------------------------------------------------


class _WatchingSource:
    """A rate source that records how many transactions are open when it is asked (an HTTP source would be
    slow here: it must never run while the order or top-up is locked)."""

    depths: list[int] = []

    def rate_for(self, asset):
        self.depths.append(len(connection.atomic_blocks))
        return rates.TableRateSource().rate_for(asset)


def test_the_rate_is_read_before_the_order_or_top_up_is_locked(monkeypatch, customer, order):
    monkeypatch.setitem(rates.RATE_SOURCES, "watching", _WatchingSource)
    monkeypatch.setattr("django.conf.settings.PAYMENTS_RATE_SOURCE", "watching", raising=False)
    outside = len(connection.atomic_blocks)  # the test's own transaction
    _WatchingSource.depths = []
    usdt(order, customer)
    top_up = deposit_create(owner=customer, amount=Usd(1_000))
    intent_issue_for_deposit(deposit=top_up, owner=customer, asset="USDT", network="tron")
    assert _WatchingSource.depths == [outside, outside]


# --- 8. Reports hold stock forever -------------------------------------------------------------------------------


def test_a_report_on_an_expired_intent_is_recorded_and_extends_nothing(customer, order):
    intent = usdt(order, customer)
    before = Order.objects.get(pk=order.pk).reserved_until
    reported = intent_report(intent=intent, now=intent.expires_at + timedelta(minutes=1))
    assert reported.reported_at is not None
    assert Order.objects.get(pk=order.pk).reserved_until == before


def test_reports_extend_the_reservation_at_most_once(customer, order):
    first, second = usdt(order, customer), usdt(order, customer)
    intent_report(intent=first)
    extended = Order.objects.get(pk=order.pk).reserved_until
    intent_report(intent=second, now=timezone.now() + timedelta(minutes=20))
    assert Order.objects.get(pk=order.pk).reserved_until == extended


def test_the_unpaid_order_limit_answers_a_clear_code(settings, customer, gpu, payment_setup):
    settings.ORDERS_MAX_UNPAID_PER_ACCOUNT = 2

    def place():
        return order_place(
            owner=customer, gpu_slug=gpu.slug, term_days=7, lots=1, environment="ubuntu",
            contact=Contact("Pay", "Er", "pay@example.com"),
        )  # fmt: skip

    place()
    place()
    with pytest.raises(TooManyUnpaidOrders) as raised:
        place()
    assert (raised.value.code, raised.value.status) == ("too_many_unpaid_orders", 409)
    assert Order.objects.filter(owner=customer).count() == 2


# --- 3. Other intents stay live after the order is paid: the page and the API -----------------------------------


def test_closed_intents_show_no_payment_details_on_the_order_page_or_api(client, customer, order):
    paid_with, other = usdt(order, customer), usdt(order, customer)
    payment_receive(intent_id=paid_with.pk, txid="tx-1", amount_units=paid_with.amount_units, source="operator")
    client.force_login(customer)
    html = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    assert "I have sent the payment" not in html
    assert "Anything still sent to these instructions is credited to your balance." in html
    assert html.count('class="qr"') == 0
    api = client.get(f"/api/v1/orders/{order.ref}").json()
    statuses = {item["id"]: item["status"] for item in api["intents"]}
    assert statuses[str(other.pk)] == "closed"
