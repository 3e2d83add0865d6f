"""Retention (privacy page): support requests go RETENTION_SUPPORT_DAYS after their last message; orders,
payments and the ledger stay as commercial records; log-in records go after RETENTION_LOGS_DAYS."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.urls import reverse
from django.utils import timezone

from gpurent.accounts.retention import login_records_purge
from gpurent.orders.models import Order
from gpurent.support.models import SupportMessage, SupportRequest
from gpurent.support.retention import support_requests_purge
from gpurent.support.services import RequestInput, support_request_create

pytestmark = pytest.mark.django_db


def request_aged(customer, order, days_ago: int) -> SupportRequest:
    request = support_request_create(
        owner=customer, data=RequestInput(subject=f"OOM {days_ago}", observed="CUDA out of memory", order_ref=order.ref)
    )
    SupportRequest.objects.filter(pk=request.pk).update(last_message_at=timezone.now() - timedelta(days=days_ago))
    return request


def test_support_requests_past_the_period_are_deleted_with_their_messages(customer, order, settings):
    settings.RETENTION_SUPPORT_DAYS = 365
    old = request_aged(customer, order, days_ago=366)
    recent = request_aged(customer, order, days_ago=364)
    SupportMessage.objects.create(request=old, author_role="operator", body="Try a smaller batch.")
    assert support_requests_purge(now=timezone.now()) == 1
    assert list(SupportRequest.objects.all()) == [recent]
    assert not SupportMessage.objects.filter(request_id=old.pk).exists()
    # The order the request was about is a commercial record: untouched.
    assert Order.objects.filter(pk=order.pk).exists()
    assert support_requests_purge(now=timezone.now()) == 0


def test_the_period_follows_the_setting(customer, order, settings):
    request_aged(customer, order, days_ago=40)
    settings.RETENTION_SUPPORT_DAYS = 60
    assert support_requests_purge(now=timezone.now()) == 0
    settings.RETENTION_SUPPORT_DAYS = 30
    assert support_requests_purge(now=timezone.now()) == 1


def test_login_records_past_the_period_are_deleted(settings):
    settings.RETENTION_LOGS_DAYS = 30
    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        for days in (31, 29):
            extra = {"failures_since_start": 1} if model is AccessAttempt else {}
            who = {"username": f"a{days}@example.com", "ip_address": "203.0.113.9", "user_agent": "x"}
            row = model.objects.create(**who, **extra)
            model.objects.filter(pk=row.pk).update(attempt_time=timezone.now() - timedelta(days=days))
    assert login_records_purge(now=timezone.now()) == 3
    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        assert model.objects.count() == 1


def test_the_privacy_page_states_the_periods_the_sweep_applies(client, settings):
    settings.RETENTION_SUPPORT_DAYS = 90
    settings.RETENTION_LOGS_DAYS = 14
    settings.RETENTION_RECORDS_YEARS = 7
    page = client.get(reverse("pages:privacy"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Support requests: 90 days after their last message." in page
    assert "Server logs and failed log-in attempts: 14 days." in page
    assert "Orders, payments and the ledger: 7 years, as commercial records." in page
