"""Emails a dead worker left unsent are sent by the next run, once (issue 15)."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from gpurent.core.emails import deliver_email, email_queue, emails_requeue_unsent
from gpurent.core.models import OutboundEmail

pytestmark = pytest.mark.django_db


def queued(key="hello:1"):
    # Queued without running the task: the process died before (or while) the worker could send it.
    return email_queue(key=key, to="a@example.com", template="test_hello", context={"name": "Ada"})


def test_deliver_email_takes_over_the_claim_of_a_worker_that_died(settings):
    email = queued()
    long_ago = timezone.now() - timedelta(seconds=settings.TASKS_RECLAIM_AFTER_SECONDS + 1)
    OutboundEmail.objects.filter(pk=email.pk).update(claimed_at=long_ago)
    assert deliver_email.call(email.pk) is True
    assert deliver_email.call(email.pk) is False
    assert len(mail.outbox) == 1
    assert OutboundEmail.objects.get(pk=email.pk).sent_at is not None


def test_deliver_email_leaves_a_fresh_claim_to_its_worker():
    email = queued()
    OutboundEmail.objects.filter(pk=email.pk).update(claimed_at=timezone.now())
    assert deliver_email.call(email.pk) is False
    assert mail.outbox == []


def test_sweep_requeues_an_email_no_worker_sent_once_per_period(settings, django_capture_on_commit_callbacks):
    email = queued()
    later = timezone.now() + timedelta(seconds=settings.TASKS_RECLAIM_AFTER_SECONDS + 1)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert emails_requeue_unsent(now=timezone.now()) == 0  # too recent: its own task may still run
        assert emails_requeue_unsent(now=later) == 1
        assert emails_requeue_unsent(now=later) == 0  # requeued already in this period
    for callback in callbacks:
        callback()
    assert len(mail.outbox) == 1
    assert OutboundEmail.objects.get(pk=email.pk).sent_at is not None
