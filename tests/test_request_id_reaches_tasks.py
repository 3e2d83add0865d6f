"""A request's id reaches the background work it enqueues (decision 0412): the task's row stores it, and the
worker's lines while it runs the task, the e-mail's send line included, carry it, with the task's own id."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from gpurent.accounts.models import User
from gpurent.backoffice.management.commands.worker import ShopWorker
from gpurent.core.models import OutboundEmail
from gpurent.core.observability.task_backend import task_request_id
from gpurent.core.testing import logged_lines
from gpurent.orders.services import Contact, order_place
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import ExchangeRate, ReceivingAddress

pytestmark = pytest.mark.django_db

DATABASE_TASKS = {
    "default": {"BACKEND": "gpurent.core.observability.task_backend.RequestIdDatabaseBackend", "QUEUES": ["default"]}
}


def _worker() -> ShopWorker:
    return ShopWorker(
        queue_names=["default"],
        interval=0.1,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="worker-request-id-test",
        excluded_queue_names=[],
    )


# Real commits: the e-mail's task is enqueued when the report's transaction commits, inside the request (a test
# transaction would run the callback only after the request, where no request id is bound any more).
@pytest.mark.django_db(transaction=True)
def test_a_payment_report_e_mail_is_sent_with_the_reporting_request_id(client, gpu, settings):
    settings.TASKS = DATABASE_TASKS
    settings.OPERATOR_EMAILS = ["ops@example.com"]
    ExchangeRate.objects.create(asset="USDT", usd_per_unit=Decimal("1"), source="test", as_of=timezone.now())
    ReceivingAddress.objects.create(network="tron", address="TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", mode="shared")
    user = User.objects.create_user("reporter@example.com", "a long test passphrase", first_name="R", last_name="P")
    order = order_place(
        owner=user, gpu_slug=gpu.slug, term_days=3, lots=1, environment="ubuntu", contact=Contact("R", "P", user.email)
    )
    intent = intent_issue_for_order(order=order, owner=user, asset="USDT", network="tron")
    client.force_login(user)

    response = client.post(
        reverse("payments:intent_report", args=[intent.pk]),
        {"idempotency_key": "k-report"},
        headers={"X-Request-ID": "edge-report-42"},
    )
    assert response.status_code == 302
    email = OutboundEmail.objects.get(template="payment_reported")
    deliveries = DBTaskResult.objects.filter(task_path="gpurent.core.emails.deliver_email")
    # The task's own arguments are unchanged: the e-mail's id.
    (queued,) = [result for result in deliveries if result.task_result.args == [email.pk]]
    assert task_request_id(queued) == "edge-report-42"

    with logged_lines() as lines:
        _worker().run_task(queued)

    sent = [line for line in lines if line["logger"] == "gpurent.core.emails" and line["message"].endswith(" sent")]
    assert len(sent) == 1
    assert sent[0]["request_id"] == "edge-report-42"
    assert sent[0]["task_id"] == str(queued.pk)
    assert {line["request_id"] for line in lines} == {"edge-report-42"}  # django-tasks' own lines too
    email.refresh_from_db()
    assert email.sent_at is not None


def test_a_task_no_request_enqueued_logs_no_request_id(settings):
    from gpurent.core.emails import deliver_email

    settings.TASKS = DATABASE_TASKS
    email = OutboundEmail.objects.create(key="k", to="x@example.com", subject="s", text="t", html="<p>t</p>")
    deliver_email.enqueue(email.pk)  # as the sweep does, outside any request
    queued = DBTaskResult.objects.get()
    assert task_request_id(queued) is None

    with logged_lines() as lines:
        _worker().run_task(queued)

    sent = [line for line in lines if line["message"].endswith(" sent")]
    assert [(line["request_id"], line["task_id"]) for line in sent] == [(None, str(queued.pk))]
