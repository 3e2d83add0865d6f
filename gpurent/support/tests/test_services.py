"""Services: opening a request, the thread, rate limits, size caps, and the secret never reaching a row or a log."""

import logging
from datetime import timedelta

import pytest
from django.apps import apps
from django.core import mail
from django.utils import timezone

from gpurent.core.errors import InvalidRequest
from gpurent.core.models import AuditLogEntry, OutboundEmail
from gpurent.support.enums import Author, RequestStatus
from gpurent.support.errors import RateLimited
from gpurent.support.models import SupportMessage, SupportRequest
from gpurent.support.services import (
    RequestInput,
    support_message_post,
    support_request_close,
    support_request_create,
)
from gpurent.support.tests.conftest import FAKE_AWS_KEY, FAKE_SEED

pytestmark = pytest.mark.django_db


def database_contains(needle: str) -> list[str]:
    """Every model row (of every app) whose field values contain `needle`."""
    hits = []
    for model in apps.get_models():
        for row in model._default_manager.all().values():
            if needle in repr(row):
                hits.append(f"{model._meta.label} {row}")
    return hits


def test_support_request_create_redacts_before_saving_and_records_where(customer, order, caplog):
    caplog.set_level(logging.DEBUG)
    logs = f"step 1 ok\nexport AWS_ACCESS_KEY_ID={FAKE_AWS_KEY}\nmy seed: {FAKE_SEED}"
    created = support_request_create(
        owner=customer, data=RequestInput(subject="Keys", observed="boom", order_ref=order.ref, logs=logs)
    )
    created.refresh_from_db()
    assert (
        created.logs
        == "step 1 ok\nexport AWS_ACCESS_KEY_ID=[REDACTED: AWS access key]\nmy seed: [REDACTED: Wallet seed phrase]"
    )
    assert created.redactions == [
        {"field": "logs", "line": 2, "kind": "aws_access_key"},
        {"field": "logs", "line": 3, "kind": "seed_phrase"},
    ]
    assert (created.order, created.gpu, created.status) == (order, order.gpu, RequestStatus.OPEN)
    assert database_contains(FAKE_AWS_KEY) == []
    assert database_contains("sausage worth useful") == []
    assert FAKE_AWS_KEY not in caplog.text
    assert "sausage" not in caplog.text


def test_support_request_create_another_customers_order_is_refused(other_customer, order):
    with pytest.raises(InvalidRequest, match="Choose one of your own orders"):
        support_request_create(owner=other_customer, data=RequestInput(subject="x", observed="y", order_ref=order.ref))
    assert not SupportRequest.objects.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (RequestInput(subject=" ", observed="y"), "Give your request a short subject."),
        (RequestInput(subject="x", observed=""), "Describe what you observed."),
        (RequestInput(subject="x" * 201, observed="y"), "Keep the subject under 200 characters."),
        (RequestInput(subject="x", observed="y", gpu_slug="tpu-v5"), "Choose a GPU model from the catalog"),
        (RequestInput(subject="x", observed="y", logs="é" * 50_001), "Messages and logs is too long: at most 100 kB"),
    ],
)
def test_support_request_create_bad_input_writes_nothing(customer, data, message):
    with pytest.raises(InvalidRequest, match=message):
        support_request_create(owner=customer, data=data)
    assert not SupportRequest.objects.exists()


def test_support_request_create_rate_limit_per_hour_then_per_day(customer, settings):
    settings.SUPPORT_REQUEST_RATE_LIMITS = [(3600, 2), (86400, 3)]
    for number in range(2):
        support_request_create(owner=customer, data=RequestInput(subject=f"n{number}", observed="y"))
    with pytest.raises(RateLimited, match="at most 2 support requests in an hour"):
        support_request_create(owner=customer, data=RequestInput(subject="n2", observed="y"))
    SupportRequest.objects.update(created_at=timezone.now() - timedelta(hours=2))
    support_request_create(owner=customer, data=RequestInput(subject="n3", observed="y"))
    with pytest.raises(RateLimited, match="at most 3 support requests in a day"):
        support_request_create(owner=customer, data=RequestInput(subject="n4", observed="y"))
    assert SupportRequest.objects.count() == 3


def test_support_request_create_rate_limit_is_per_customer(customer, other_customer, settings):
    settings.SUPPORT_REQUEST_RATE_LIMITS = [(3600, 1)]
    support_request_create(owner=customer, data=RequestInput(subject="a", observed="y"))
    support_request_create(owner=other_customer, data=RequestInput(subject="b", observed="y"))
    assert SupportRequest.objects.count() == 2


def test_support_message_post_operator_reply_answers_audits_and_emails_once(
    support_request, operator, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        message, findings = support_message_post(
            request=support_request, author=operator, role=Author.OPERATOR, body="Try NCCL_P2P_DISABLE=1."
        )
    support_request.refresh_from_db()
    assert support_request.status == RequestStatus.ANSWERED
    assert findings == []
    entry = AuditLogEntry.objects.get(action="support.reply")
    assert (entry.actor, entry.target_id, entry.after) == (
        operator,
        str(support_request.pk),
        {"status": "answered", "message_id": message.pk},
    )
    assert OutboundEmail.objects.filter(key__startswith="support-reply:").get().key == f"support-reply:{message.pk}"
    [sent] = [email for email in mail.outbox if support_request.ref in email.subject]
    assert sent.to == ["ada@example.com"]
    assert f"/support/{support_request.ref}/" in sent.body
    assert "NCCL_P2P_DISABLE" not in sent.body  # the thread stays behind the login


def test_support_message_post_operator_reply_is_redacted_too(support_request, operator):
    message, findings = support_message_post(
        request=support_request, author=operator, role=Author.OPERATOR, body="use password=Hunter2!x"
    )
    assert message.body == "use password=[REDACTED: Password]"
    assert [finding.kind.value for finding in findings] == ["password"]


def test_support_message_post_customer_reopens_and_writes_no_audit(support_request, customer):
    support_request_close(request=support_request, actor=customer)
    message, _ = support_message_post(request=support_request, author=customer, role=Author.CUSTOMER, body="again")
    support_request.refresh_from_db()
    assert (support_request.status, message.author_role) == (RequestStatus.OPEN, Author.CUSTOMER)
    assert not AuditLogEntry.objects.exists()


def test_support_message_post_customer_rate_limit(support_request, customer, settings):
    settings.SUPPORT_MESSAGE_RATE_LIMITS = [(3600, 1)]
    support_message_post(request=support_request, author=customer, role=Author.CUSTOMER, body="one")
    with pytest.raises(RateLimited, match="at most 1 message in an hour"):
        support_message_post(request=support_request, author=customer, role=Author.CUSTOMER, body="two")
    assert SupportMessage.objects.count() == 1


def test_support_message_post_empty_body_is_refused(support_request, customer):
    with pytest.raises(InvalidRequest, match="Write a message"):
        support_message_post(request=support_request, author=customer, role=Author.CUSTOMER, body="  ")


def test_support_request_close_by_operator_is_audited_and_idempotent(support_request, operator):
    support_request_close(request=support_request, actor=operator)
    support_request_close(request=support_request, actor=operator)
    support_request.refresh_from_db()
    assert support_request.status == RequestStatus.CLOSED
    assert AuditLogEntry.objects.filter(action="support.close").count() == 1
