"""The back office: operators read a request and reply from its change page; customers' text stays read-only."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from gpurent.core.models import AuditLogEntry
from gpurent.support.enums import Author, RequestStatus
from gpurent.support.models import SupportMessage

pytestmark = pytest.mark.django_db


def test_admin_reply_posts_a_redacted_operator_message(client, operator, support_request):
    client.force_login(operator)
    url = reverse("admin:support_supportrequest_change", args=[support_request.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert "NCCL timeout" in page.content.decode()
    key = _form_key(page.content.decode())
    reply = {"reply": "Set NCCL_P2P_DISABLE=1; api_key=abc123def456", "idempotency_key": key}
    response = client.post(url, {**reply, **_inline_management()})
    assert response.status_code == 302, response.content.decode()[:2000]
    message = SupportMessage.objects.get()
    assert (message.author_role, message.author) == (Author.OPERATOR, operator)
    assert message.body == "Set NCCL_P2P_DISABLE=1; api_key=[REDACTED: API key or secret]"
    support_request.refresh_from_db()
    assert support_request.status == RequestStatus.ANSWERED
    assert AuditLogEntry.objects.filter(action="support.reply").count() == 1


def test_a_double_submitted_reply_is_posted_and_emailed_once(
    client, operator, support_request, django_capture_on_commit_callbacks
):
    client.force_login(operator)
    url = reverse("admin:support_supportrequest_change", args=[support_request.pk])
    form = {"reply": "Try the 550 driver.", "idempotency_key": _form_key(client.get(url).content.decode())}
    with django_capture_on_commit_callbacks(execute=True):
        first = client.post(url, {**form, **_inline_management()})
        second = client.post(url, {**form, **_inline_management()})  # a double click: the same page's key
    assert (first.status_code, second.status_code) == (302, 302)
    assert SupportMessage.objects.filter(author_role=Author.OPERATOR).count() == 1
    assert AuditLogEntry.objects.filter(action="support.reply").count() == 1
    assert len(mail.outbox) == 1
    assert support_request.ref in mail.outbox[0].body


def test_a_reply_without_an_idempotency_key_is_refused(client, operator, support_request):
    client.force_login(operator)
    url = reverse("admin:support_supportrequest_change", args=[support_request.pk])
    response = client.post(url, {"reply": "Try the 550 driver.", **_inline_management()})
    assert response.status_code == 302
    assert not SupportMessage.objects.exists()


def test_admin_save_without_reply_changes_nothing(client, operator, support_request):
    client.force_login(operator)
    url = reverse("admin:support_supportrequest_change", args=[support_request.pk])
    client.post(url, {"reply": "", **_inline_management()})
    assert not SupportMessage.objects.exists()
    assert not AuditLogEntry.objects.exists()


def test_admin_close_action_closes_and_audits_once_per_the_lists_key(client, operator, support_request):
    client.force_login(operator)
    url = reverse("admin:support_supportrequest_changelist")
    key = _form_key(client.get(url).content.decode())
    posted = {"action": "close_requests", "_selected_action": [support_request.pk], "idempotency_key": key}
    first = client.post(url, posted, follow=True)
    again = client.post(url, posted, follow=True)
    support_request.refresh_from_db()
    assert support_request.status == RequestStatus.CLOSED
    assert AuditLogEntry.objects.filter(action="support.close").count() == 1
    assert first.redirect_chain == again.redirect_chain == [(url, 302)]
    assert "1 request closed." in first.content.decode()
    assert "1 request closed." not in again.content.decode()  # a replay says nothing new


def test_admin_close_action_without_the_lists_key_is_refused(client, operator, support_request):
    client.force_login(operator)
    url = reverse("admin:support_supportrequest_changelist")
    client.post(url, {"action": "close_requests", "_selected_action": [support_request.pk]})
    support_request.refresh_from_db()
    assert support_request.status != RequestStatus.CLOSED
    assert not AuditLogEntry.objects.filter(action="support.close").exists()


def test_admin_is_closed_to_customers(client, customer, support_request):
    client.force_login(customer)
    response = client.get(reverse("admin:support_supportrequest_change", args=[support_request.pk]))
    assert response.status_code == 302


def _form_key(page: str) -> str:
    found = re.search(r'name="idempotency_key" value="([^"]+)"', page)
    assert found, "the change page carries no idempotency key"
    return found.group(1)


def _inline_management():
    prefix = "messages"
    return {
        f"{prefix}-TOTAL_FORMS": "0",
        f"{prefix}-INITIAL_FORMS": "0",
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }
