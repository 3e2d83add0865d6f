"""A rental without a GPU host after its term (QA walk 2): the sweep ends it, but only an operator can take the
customer's access off the machine. The operators are e-mailed, the rental waits on the provisioning desk ("Access to
remove", oldest term end first) and on the dashboard until an operator marks its access removed (audited, the time
kept on the order). A rental on a GPU host is revoked by its agent and never waits there."""

import re
from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import Group
from django.core import mail

from conftest import make_running_rental
from gpurent.core.errors import InvalidRequest
from gpurent.core.models import AuditLogEntry
from gpurent.hosts.models import HostRental
from gpurent.orders.access_removal import access_removed_mark
from gpurent.orders.models import Order
from gpurent.orders.rental import orders_end_terms
from tests.conftest import fund

pytestmark = pytest.mark.django_db

DESK = "/backoffice/backoffice/provisioningdesk/"
DASHBOARD = "/backoffice/backoffice/dashboard/"


@pytest.fixture
def customer(django_user_model):
    user = django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C", language="vi")
    fund(user, 1_000_000)
    return user


@pytest.fixture
def operator(client, django_user_model):
    user = django_user_model.objects.create_user("ops@shop.example", "passphrase 12", is_staff=True)
    user.groups.set(Group.objects.filter(name="provisioning"))
    client.force_login(user)
    return user


def term_end(order: Order) -> datetime:
    assert order.term_ends_at is not None
    return order.term_ends_at


def end(order: Order) -> Order:
    orders_end_terms(now=term_end(order) + timedelta(seconds=1))
    return Order.objects.get(pk=order.pk)


def test_a_desk_rental_whose_term_ends_emails_the_operators_a_host_rental_does_not(
    customer, gpu, operator, django_capture_on_commit_callbacks
):
    desk_rental, host_rental = make_running_rental(customer, gpu), make_running_rental(customer, gpu)
    HostRental.objects.create(order=host_rental, username="r-host", state="active")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert orders_end_terms(now=term_end(desk_rental) + timedelta(seconds=1)) == 2
    told = [message for message in mail.outbox if message.to == ["ops@shop.example"]]  # not the customers' e-mails
    assert len(told) == 1
    message = told[0]
    # In English like the desks, whatever the customer reads (Vietnamese here).
    assert message.subject == f"Remove the access of rental {desk_rental.ref}: its term ended"
    assert f"{DESK}{desk_rental.pk}/change/" in message.body
    assert f"{DESK}?queue=access" in message.body


def test_ended_desk_rentals_wait_on_the_desk_oldest_term_end_first_until_marked(client, customer, gpu, operator):
    older, newer = make_running_rental(customer, gpu), make_running_rental(customer, gpu)
    Order.objects.filter(pk=older.pk).update(term_ends_at=term_end(older) - timedelta(hours=5))
    on_host = make_running_rental(customer, gpu)
    HostRental.objects.create(order=on_host, username="r-host", state="revoked")
    running = make_running_rental(customer, gpu)
    Order.objects.filter(pk=running.pk).update(term_ends_at=term_end(running) + timedelta(days=30))
    orders_end_terms(now=term_end(newer) + timedelta(seconds=1))
    queue = client.get(DESK, {"queue": "access"}).content.decode()
    assert "Access to remove" in queue
    assert "2 orders with access to remove" in queue  # the queue shown, not "to provision" (QA 27)
    assert queue.index(older.ref) < queue.index(newer.ref)
    assert on_host.ref not in queue
    assert running.ref not in queue
    needs_action = client.get(DESK).content.decode()
    assert older.ref in needs_action
    assert newer.ref in needs_action
    assert on_host.ref not in needs_action

    page = client.get(f"{DESK}{older.pk}/change/").content.decode()
    assert 'data-testid="desk-access-to-remove"' in page
    assert 'value="access_removed"' in page
    key = re.search(r'name="idempotency_key" value="([^"]+)"', page)
    assert key
    posted = {"action": "access_removed", "idempotency_key": key.group(1)}
    answer = client.post(f"{DESK}{older.pk}/change/", posted, follow=True)
    assert answer.redirect_chain == [(f"{DESK}?queue=access", 302)]
    assert f"Access of {older.ref} marked removed." in answer.content.decode()
    assert older.ref not in answer.content.decode().split("messagelist", 1)[1].split("</ul>", 1)[1]
    marked = Order.objects.get(pk=older.pk)
    assert marked.access_removed_at is not None
    entry = AuditLogEntry.objects.get(action="provisioning.access_removed")
    assert (entry.actor_label, entry.target_id) == ("ops@shop.example", str(older.pk))
    # A second sending of the same form acts once.
    client.post(f"{DESK}{older.pk}/change/", posted)
    assert AuditLogEntry.objects.filter(action="provisioning.access_removed").count() == 1
    page = client.get(f"{DESK}{older.pk}/change/").content.decode()
    assert 'data-testid="desk-access-removed"' in page
    assert 'data-testid="desk-access-to-remove"' not in page
    assert older.ref not in client.get(DESK).content.decode().split('id="result_list"', 1)[1]


def test_a_host_rental_or_a_running_one_cannot_be_marked(customer, gpu, operator):
    running = make_running_rental(customer, gpu)
    with pytest.raises(InvalidRequest):
        access_removed_mark(order=running, actor=operator)
    on_host = make_running_rental(customer, gpu)
    HostRental.objects.create(order=on_host, username="r-host", state="revoked")
    with pytest.raises(InvalidRequest):
        access_removed_mark(order=end(on_host), actor=operator)
    assert not Order.objects.filter(access_removed_at__isnull=False).exists()


def test_the_dashboard_counts_the_access_to_remove_with_a_link(client, customer, gpu, django_user_model):
    reports = django_user_model.objects.create_user("rep@shop.example", "passphrase 12", is_staff=True)
    reports.groups.set(Group.objects.filter(name="reports"))
    client.force_login(reports)
    ended = end(make_running_rental(customer, gpu))
    work = client.get(DASHBOARD).content.decode().split('data-testid="open-work"', 1)[1]
    line = f'<a href="{DESK}?queue=access">Ended rentals whose access is still to remove</a>: <strong>1</strong>'
    assert line in work
    access_removed_mark(order=ended, actor=reports)
    work = client.get(DASHBOARD).content.decode().split('data-testid="open-work"', 1)[1]
    assert "Ended rentals whose access is still to remove</a>: <strong>0</strong>" in work
