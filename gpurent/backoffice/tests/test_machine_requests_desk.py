"""The customers' machine requests as a desk (QA walk 2, defect 2): the open ones by default, dates with their zone,
no Add button, each linked to its rental's provisioning page, marked handled with an audit row."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from conftest import make_running_rental
from gpurent.core.admin import with_zone
from gpurent.core.models import AuditLogEntry
from gpurent.orders.models import MachineRequest
from tests.conftest import fund

pytestmark = pytest.mark.django_db

URL = "/backoffice/orders/machinerequest/"


@pytest.fixture
def requests(django_user_model, gpu):
    """An open restart request and a stop request handled an hour ago, on one running rental."""
    customer = django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C")
    fund(customer, 100_000)
    rental = make_running_rental(customer, gpu)
    handled = MachineRequest.objects.create(
        order=rental, kind="stop", note="done already", handled_at=timezone.now() - timedelta(hours=1)
    )
    return MachineRequest.objects.create(order=rental, kind="restart", note="hung"), handled


@pytest.fixture
def operator(client, django_user_model):
    user = django_user_model.objects.create_user("ops@shop.example", "passphrase 12", is_staff=True)
    user.groups.set(Group.objects.filter(name="provisioning"))
    client.force_login(user)
    return user


def notes(page: str) -> list[str]:
    return re.findall(r'<td class="field-note">([^<]*)</td>', page)


def test_the_list_is_a_desk_of_open_requests_with_zoned_dates_and_no_add_button(client, operator, requests):
    open_request, handled = requests
    page = client.get(URL).content.decode()
    assert "<h1>Machine requests</h1>" in page
    assert "Select machine request to change" not in page
    assert "addlink" not in page  # no "Add machine request": only a customer makes one
    assert notes(page) == ["hung"]
    assert with_zone(open_request.created_at) in page  # "06 Dec 2026, 13:58 UTC", as the other desks write dates
    provisioning = f'<a href="/backoffice/backoffice/provisioningdesk/{open_request.order_id}/change/">'
    assert f'{provisioning}<span class="ref">{open_request.order.ref}</span></a>' in page
    assert notes(client.get(URL, {"queue": "handled"}).content.decode()) == ["done already"]
    everything = client.get(URL, {"queue": "all"}).content.decode()
    assert notes(everything) == ["hung", "done already"]  # the open one first
    assert with_zone(handled.handled_at) in everything


def test_a_request_cannot_be_added_or_edited_by_hand(client, operator, requests):
    open_request, _handled = requests
    assert client.get(f"{URL}add/").status_code == 403
    response = client.get(f"{URL}{open_request.pk}/change/")
    assert response.status_code == 200
    page = response.content.decode()
    assert open_request.order.ref in page  # the request is shown, read-only
    assert 'name="handled_at' not in page
    assert 'name="_save"' not in page


def test_marking_a_request_handled_from_the_list_audits_it(client, operator, requests):
    open_request, _handled = requests
    found = re.search(r'name="idempotency_key" value="([^"]+)"', client.get(URL).content.decode())
    assert found
    key = found.group(1)
    posted = {"action": "mark_handled", "_selected_action": [open_request.pk], "idempotency_key": key}
    page = client.post(URL, posted, follow=True).content.decode()
    assert "1 request handled." in page
    assert notes(page) == []
    entry = AuditLogEntry.objects.get(action="machine_request.handled")
    assert (entry.actor_label, entry.target_id) == ("ops@shop.example", str(open_request.pk))


def test_the_rentals_provisioning_page_says_which_requests_are_open(client, operator, requests):
    open_request, _handled = requests
    page = client.get(f"/backoffice/backoffice/provisioningdesk/{open_request.order_id}/change/").content.decode()
    ref = open_request.order.ref
    assert f'Restart the machine: hung · <a href="{URL}?q={ref}">open: mark it handled once done</a>' in page
    assert "Stop the machine: done already · handled " in page
