"""The back office's bulk list actions (revoke API tokens, mark machine requests handled) run once per the list
page's idempotency key, as every desk action does (issue 15, decision 0260). Closing support requests in bulk
is tested with the support desk (`gpurent/support/tests/test_admin.py`)."""

import re

import pytest
from django.db.models import Model
from django.urls import reverse

from gpurent.accounts.models import ApiToken
from gpurent.accounts.services import api_token_create
from gpurent.core.models import AuditLogEntry
from gpurent.orders.models import MachineRequest, MachineRequestKind
from gpurent.orders.services import Contact, order_place

pytestmark = pytest.mark.django_db


@pytest.fixture
def operator(django_user_model):
    return django_user_model.objects.create_superuser("op@example.com", "long enough passphrase", is_staff=True)


@pytest.fixture
def customer(django_user_model):
    return django_user_model.objects.create_user("c@example.com", "long enough passphrase", first_name="C")


def _list_key(client, url: str) -> str:
    found = re.search(r'name="idempotency_key" value="([^"]+)"', client.get(url).content.decode())
    assert found, "the list page carries no idempotency key"
    return found.group(1)


def _twice(client, url: str, action: str, pk: int, key: str | None):
    posted = {"action": action, "_selected_action": [pk], **({"idempotency_key": key} if key else {})}
    return client.post(url, posted, follow=True), client.post(url, posted, follow=True)


def test_revoking_tokens_twice_with_the_lists_key_revokes_and_audits_once(client, operator, customer):
    token, _secret = api_token_create(user=customer, name="laptop")
    client.force_login(operator)
    url = reverse("admin:accounts_apitoken_changelist")
    first, again = _twice(client, url, "revoke", token.pk, _list_key(client, url))
    assert ApiToken.objects.get(pk=token.pk).revoked_at is not None
    assert AuditLogEntry.objects.filter(action="admin.api_token_revoke").count() == 1
    assert first.redirect_chain == again.redirect_chain == [(url, 302)]
    assert "1 tokens revoked." in first.content.decode()
    assert "tokens revoked." not in again.content.decode()  # the replay says nothing new (before: "0 tokens")


def test_marking_machine_requests_handled_twice_with_the_lists_key_marks_once(client, operator, customer, gpu):
    contact = Contact("C", "U", "c@example.com")
    order = order_place(owner=customer, gpu_slug=gpu.slug, term_days=7, lots=1, environment="ubuntu", contact=contact)
    request = MachineRequest.objects.create(order=order, kind=MachineRequestKind.STOP)
    client.force_login(operator)
    url = reverse("admin:orders_machinerequest_changelist")
    first, again = _twice(client, url, "mark_handled", request.pk, _list_key(client, url))
    assert MachineRequest.objects.get(pk=request.pk).handled_at is not None
    assert first.redirect_chain == again.redirect_chain == [(url, 302)]
    assert "1 request handled." in first.content.decode()
    assert "request handled." not in again.content.decode()


def _token(customer, gpu) -> tuple[Model, str, str]:
    token, _secret = api_token_create(user=customer, name="laptop")
    return token, reverse("admin:accounts_apitoken_changelist"), "revoked_at"


def _machine_request(customer, gpu) -> tuple[Model, str, str]:
    contact = Contact("C", "U", "c@example.com")
    order = order_place(owner=customer, gpu_slug=gpu.slug, term_days=7, lots=1, environment="ubuntu", contact=contact)
    request = MachineRequest.objects.create(order=order, kind=MachineRequestKind.STOP)
    return request, reverse("admin:orders_machinerequest_changelist"), "handled_at"


@pytest.mark.parametrize(("action", "make"), [("revoke", _token), ("mark_handled", _machine_request)])
def test_a_bulk_action_without_the_lists_key_changes_nothing(client, operator, customer, gpu, action, make):
    row, url, field = make(customer, gpu)
    client.force_login(operator)
    first, _again = _twice(client, url, action, row.pk, key=None)
    row.refresh_from_db()
    assert getattr(row, field) is None
    assert first.redirect_chain == [(url, 302)]
