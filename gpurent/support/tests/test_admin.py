"""The back office: operators read a request and reply from its change page; customers' text stays read-only."""

import pytest
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
    response = client.post(url, {"reply": "Set NCCL_P2P_DISABLE=1; api_key=abc123def456", **_inline_management()})
    assert response.status_code == 302, response.content.decode()[:2000]
    message = SupportMessage.objects.get()
    assert (message.author_role, message.author) == (Author.OPERATOR, operator)
    assert message.body == "Set NCCL_P2P_DISABLE=1; api_key=[REDACTED: API key or secret]"
    support_request.refresh_from_db()
    assert support_request.status == RequestStatus.ANSWERED
    assert AuditLogEntry.objects.filter(action="support.reply").count() == 1


def test_admin_save_without_reply_changes_nothing(client, operator, support_request):
    client.force_login(operator)
    url = reverse("admin:support_supportrequest_change", args=[support_request.pk])
    client.post(url, {"reply": "", **_inline_management()})
    assert not SupportMessage.objects.exists()
    assert not AuditLogEntry.objects.exists()


def test_admin_close_action_closes_and_audits(client, operator, support_request):
    client.force_login(operator)
    client.post(
        reverse("admin:support_supportrequest_changelist"),
        {"action": "close_requests", "_selected_action": [support_request.pk]},
    )
    support_request.refresh_from_db()
    assert support_request.status == RequestStatus.CLOSED
    assert AuditLogEntry.objects.filter(action="support.close").count() == 1


def test_admin_is_closed_to_customers(client, customer, support_request):
    client.force_login(customer)
    response = client.get(reverse("admin:support_supportrequest_change", args=[support_request.pk]))
    assert response.status_code == 302


def _inline_management():
    prefix = "messages"
    return {
        f"{prefix}-TOTAL_FORMS": "0",
        f"{prefix}-INITIAL_FORMS": "0",
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }
