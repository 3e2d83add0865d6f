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
from gpurent.payments.intents.lifecycle import intent_issue_for_deposit, intent_issue_for_order, intent_report
from gpurent.payments.models import PaymentIntent
from gpurent.payments.received.receive import payment_receive
from gpurent.payments.services import deposit_create

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


# --- 9. Status and history hide the report ----------------------------------------------------------------------


def test_a_report_shows_as_payment_reported_in_lists_badge_and_history(client, customer, order):
    intent = usdt(order, customer)
    other = usdt(order, customer)
    intent_report(intent=intent)
    client.force_login(customer)
    rentals = client.get(reverse("orders:rentals")).content.decode()
    assert 'class="status status-payment_reported">Payment reported<' in rentals
    page = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    assert 'class="status status-payment_reported">Payment reported<' in page
    assert "payment reported:" in page  # the history line
    # A partial payment on another intent does not hide the report still waiting for verification.
    payment_receive(intent_id=other.pk, txid="tx-part", amount_units=1_000_000, source="operator")
    assert client.get(f"/api/v1/orders/{order.ref}").json()["payment_reported"] is True
    payment_receive(intent_id=intent.pk, txid="tx-rest", amount_units=1_000_000, source="operator")
    assert client.get(f"/api/v1/orders/{order.ref}").json()["payment_reported"] is False


def test_a_reported_top_up_shows_payment_reported_in_the_deposit_list(client, customer, payment_setup):
    top_up = deposit_create(owner=customer, amount=Usd(2_000))
    intent = intent_issue_for_deposit(deposit=top_up, owner=customer, asset="USDT", network="tron")
    intent_report(intent=intent)
    client.force_login(customer)
    balance = client.get(reverse("payments:balance")).content.decode()
    assert 'class="status status-payment_reported">Payment reported<' in balance


# --- 10. Cancel after report --------------------------------------------------------------------------------------


def test_cancelling_after_a_report_asks_for_confirmation_and_says_what_happens(client, customer, order):
    intent = usdt(order, customer)
    intent_report(intent=intent)
    client.force_login(customer)
    page = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    assert "credited to your balance" in page
    assert 'name="confirm" value="yes" required' in page
    url = reverse("orders:rental_cancel", args=[order.ref])
    client.post(url, {"idempotency_key": "c1"})  # one click, no confirmation: nothing happens
    assert Order.objects.get(pk=order.pk).payment_status == "awaiting_payment"
    client.post(url, {"idempotency_key": "c2", "confirm": "yes"})
    assert Order.objects.get(pk=order.pk).payment_status == "cancelled"
    assert PaymentIntent.objects.get(pk=intent.pk).status == "closed"  # no countdown, no QR any more
    page = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    assert "Nothing was charged" not in page


def test_cancelling_without_any_payment_needs_only_the_box_ticked(client, customer, order):
    client.force_login(customer)
    page = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    assert 'data-testid="cancel-warning"' not in page  # nothing to say about money, only the confirmation
    client.post(reverse("orders:rental_cancel", args=[order.ref]), {"idempotency_key": "c1", "confirm": "yes"})
    assert Order.objects.get(pk=order.pk).payment_status == "cancelled"


def test_a_cancelled_order_is_emailed_to_its_contact(customer, order):
    from gpurent.core.models import OutboundEmail
    from gpurent.orders.services import order_cancel

    order_cancel(order=order, actor=customer)
    email = OutboundEmail.objects.get(key=f"order-cancelled:{order.ref}")
    assert email.to == order.contact_email


# --- 11. Refunds are invisible on the order -----------------------------------------------------------------------


def test_a_refund_shows_on_the_order_with_its_reference_and_the_money_track(client, customer, order):
    from gpurent.orders.provisioning import provision_fail, provision_start

    intent = usdt(order, customer)
    payment_receive(intent_id=intent.pk, txid="tx-1", amount_units=intent.amount_units, source="operator")
    provision_start(order=Order.objects.get(pk=order.pk), actor=None)
    provision_fail(order=Order.objects.get(pk=order.pk), actor=None, reason="no machine")
    client.force_login(customer)
    page = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    assert f"refund:{order.ref}" in page
    assert '<dd data-testid="order-paid">$410.00</dd>' in page
    assert '<dd data-testid="order-refunded">$410.00</dd>' in page
    assert "$410.00 received for this order is in your balance: use it for another order or withdraw it." in page
