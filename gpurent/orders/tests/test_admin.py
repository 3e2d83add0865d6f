"""The orders in the back office: amounts as money, moments with their time zone, states by their labels."""

import re
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from gpurent.orders.models import Order
from gpurent.orders.services import Contact, order_place

pytestmark = pytest.mark.django_db


@pytest.fixture
def operator(django_user_model):
    return django_user_model.objects.create_superuser("op@example.com", "long enough passphrase", is_staff=True)


@pytest.fixture
def order(django_user_model, gpu):
    customer = django_user_model.objects.create_user(
        "qa-es-1796554416@example.com", "passphrase 12", first_name="C", last_name="U"
    )
    placed = order_place(
        owner=customer,
        gpu_slug=gpu.slug,
        term_days=30,
        lots=2,
        environment="ubuntu",
        contact=Contact("C", "U", "c@x.io"),
    )
    Order.objects.filter(pk=placed.pk).update(created_at=datetime(2026, 12, 6, 10, 53, tzinfo=UTC))
    return placed


def test_order_list_shows_the_total_as_money_and_the_date_with_its_zone(client, operator, order):
    client.force_login(operator)
    page = client.get(reverse("admin:orders_order_changelist")).content.decode()
    assert '<td class="field-total">$1,580.00</td>' in page
    assert "158000" not in page
    assert "(cents)" not in page
    assert '<td class="field-created_at_shown">06 Dec 2026, 10:53 UTC</td>' in page  # the change form's column
    assert "a.m." not in page
    # The e-mail breaks only before its "@", as on the desks (which this list's stylesheet is).
    assert '<span class="email-part">qa-es-1796554416</span><wbr><span class="email-part">@example.com</span>' in page
    assert "backoffice/desk.css" in page


def test_order_page_shows_amounts_as_money_and_moments_with_their_zone(client, operator, order):
    client.force_login(operator)
    page = client.get(reverse("admin:orders_order_change", args=[order.pk])).content.decode()
    assert re.search(r"Price of one lot:</label>\s*<div class=\"readonly\">\$790.00</div>", page)
    assert re.search(r"Total:</label>\s*<div class=\"readonly\">\$1,580.00</div>", page)
    assert "06 Dec 2026, 10:53 UTC" in page
    assert "158000" not in page
    assert "79000" not in page


def test_order_page_shows_the_status_changes_by_their_labels(client, operator, order):
    client.force_login(operator)
    page = client.get(reverse("admin:orders_order_change", args=[order.pk])).content.decode()
    history = page.split('id="status_changes-group"', 1)[1]
    assert "Payment: — → Awaiting payment" in history
    assert "Provisioning: — → Not started" in history
    cells = {(m[0], m[1]) for m in re.findall(r'field-(from_state|to_state)">\s*<p>(.*?)</p>', history)}
    assert cells == {("from_state", "—"), ("to_state", "Awaiting payment"), ("to_state", "Not started")}
    assert "awaiting_payment" not in history
    assert "not_started" not in history
    assert "∅" not in history
