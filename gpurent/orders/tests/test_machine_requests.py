"""A customer's stop or restart request reaches an operator: e-mailed to the provisioning role when a person must
carry it out (QA walk 2, defect 2), and marked handled with an audit row."""

import pytest
from django.contrib.auth.models import Group
from django.core import mail

from conftest import make_running_rental
from gpurent.core.models import AuditLogEntry
from gpurent.orders.machine_requests import machine_requests_mark_handled
from gpurent.orders.models import MachineRequest
from gpurent.orders.rental import machine_request_create
from tests.conftest import fund

pytestmark = pytest.mark.django_db


@pytest.fixture
def rental(django_user_model, gpu, django_capture_on_commit_callbacks):
    customer = django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C", language="vi")
    fund(customer, 100_000)
    with django_capture_on_commit_callbacks(execute=True):
        return make_running_rental(customer, gpu)


@pytest.fixture
def operators(django_user_model):
    """Two operators of the provisioning role, one of another role, and a customer."""
    provisioning = Group.objects.get(name="provisioning")
    for email in ["b-ops@example.com", "a-ops@example.com"]:
        django_user_model.objects.create_user(email, "passphrase 12", is_staff=True).groups.add(provisioning)
    payouts = django_user_model.objects.create_user("payouts@example.com", "passphrase 12", is_staff=True)
    payouts.groups.add(Group.objects.get(name="payouts"))


def test_a_request_left_to_operators_emails_each_provisioning_operator_once(
    rental, operators, django_capture_on_commit_callbacks
):
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        request = machine_request_create(order=rental, kind="restart", note="hung at 100% GPU")
    sent = sorted(mail.outbox, key=lambda message: message.to)
    assert [message.to for message in sent] == [["a-ops@example.com"], ["b-ops@example.com"]]
    message = sent[0]
    # In English like the desks, whatever the customer reads (Vietnamese here).
    assert message.subject == f"Machine request for rental {rental.ref}: Restart the machine"
    assert f"c@example.com asks: Restart the machine ({rental.gpu.name}, rental {rental.ref})." in message.body
    assert "Note: hung at 100% GPU" in message.body
    assert f"/backoffice/orders/machinerequest/?q={rental.ref}" in message.body
    assert f"/backoffice/backoffice/provisioningdesk/{rental.pk}/change/" in message.body
    assert MachineRequest.objects.get(pk=request.pk).handled_at is None


def test_operator_emails_setting_names_who_is_told(rental, operators, settings, django_capture_on_commit_callbacks):
    settings.OPERATOR_EMAILS = ["desk@example.com"]
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        machine_request_create(order=rental, kind="stop")
    assert [message.to for message in mail.outbox] == [["desk@example.com"]]
    assert "Note:" not in mail.outbox[0].body


def test_marking_requests_handled_audits_each_and_leaves_handled_ones(rental, django_user_model):
    operator = django_user_model.objects.create_user("op@example.com", "passphrase 12", is_staff=True)
    first = machine_request_create(order=rental, kind="stop")
    second = machine_request_create(order=rental, kind="restart")
    assert machine_requests_mark_handled(request_ids=[first.pk], actor=operator) == 1
    handled_at = MachineRequest.objects.get(pk=first.pk).handled_at
    assert handled_at is not None
    assert machine_requests_mark_handled(request_ids=[first.pk, second.pk], actor=operator) == 1
    assert MachineRequest.objects.get(pk=first.pk).handled_at == handled_at
    rows = AuditLogEntry.objects.filter(action="machine_request.handled").order_by("id")
    assert [(row.actor_label, row.target_id) for row in rows] == [
        ("op@example.com", str(first.pk)),
        ("op@example.com", str(second.pk)),
    ]
    assert (rows[0].before or {"handled_at": "missing"})["handled_at"] is None


def test_asking_again_while_a_request_waits_adds_none_and_emails_nobody_again(
    rental, operators, django_capture_on_commit_callbacks
):
    # Review: every reload of the rental page brings a new form key, so each click (or a script) added a request and
    # e-mailed every operator again.
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        first = machine_request_create(order=rental, kind="restart", note="hung")
        again = [machine_request_create(order=rental, kind="restart") for _ in range(3)]
    assert {request.pk for request in again} == {first.pk}
    assert MachineRequest.objects.filter(order=rental, kind="restart").count() == 1
    assert len(mail.outbox) == 2  # the two provisioning operators, once
    with django_capture_on_commit_callbacks(execute=True):
        stop = machine_request_create(order=rental, kind="stop")
    assert stop.pk != first.pk  # another kind is another request
