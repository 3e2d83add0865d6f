"""What an order's page says about its machine and term (QA walk 2): the note that stopping the machine does not
pause or extend the term only where there is a machine to stop, and a paid extension's page gives the rental's
new end."""

from datetime import timedelta

import pytest
from django.urls import reverse

from gpurent.core.formats import date_text
from gpurent.orders.extensions import order_extension_place
from gpurent.orders.models import Order
from gpurent.orders.provisioning import provision_fail, provision_start
from gpurent.orders.rental import orders_end_terms
from gpurent.orders.services import Contact, order_place
from gpurent.payments.services import order_pay_from_balance

pytestmark = pytest.mark.django_db
# The `customer` (with $5,000 on the balance) and `rental` fixtures are in this package's conftest.py.

STOP_NOTE = "Stopping the machine does not pause or extend the term."


def page_of(client, order: Order) -> str:
    return client.get(reverse("orders:rental", args=[order.ref])).content.decode()


def _placed(customer, gpu) -> Order:
    contact = Contact("R", "E", "r@example.com")
    return order_place(owner=customer, gpu_slug=gpu.slug, term_days=3, lots=1, environment="ubuntu", contact=contact)


def test_the_stop_note_is_beside_a_running_machine(client, customer, rental):
    client.force_login(customer)
    page = page_of(client, rental)
    assert page.count(STOP_NOTE) == 1
    assert page.index("Ask for a stop") < page.index(STOP_NOTE)


def test_no_stop_note_where_there_is_no_machine(client, customer, gpu, rental):
    unpaid = _placed(customer, gpu)
    failed = provision_fail(
        order=provision_start(order=order_pay_from_balance(order=_placed(customer, gpu), owner=customer), actor=None),
        actor=None,
        reason="no host",
    )
    orders_end_terms(now=rental.term_ends_at + timedelta(seconds=1))
    ended = Order.objects.get(pk=rental.pk)
    assert (unpaid.payment_status, failed.provisioning_status, ended.provisioning_status) == (
        "awaiting_payment",
        "failed",
        "ended",
    )
    client.force_login(customer)
    for order in (unpaid, failed, ended):
        assert STOP_NOTE not in page_of(client, order), order.provisioning_status


def test_a_paid_extension_says_when_the_rental_now_ends(client, customer, rental):
    extension = order_pay_from_balance(
        order=order_extension_place(rental=rental, owner=customer, term_days=7), owner=customer
    )
    new_end = Order.objects.get(pk=rental.pk).term_ends_at
    assert new_end == rental.term_ends_at + timedelta(days=7)
    client.force_login(customer)
    assert (
        f"Paid: the rental's term end has moved. The rental now ends on {date_text(new_end, time=True)} UTC."
        in page_of(client, extension)
    )
    orders_end_terms(now=new_end + timedelta(seconds=1))
    assert f"Paid: the rental's term end moved. The rental ended on {date_text(new_end, time=True)} UTC." in page_of(
        client, extension
    )
