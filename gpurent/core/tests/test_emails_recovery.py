"""Emails a dead worker left unsent are sent by the next run, once (issue 15)."""

from datetime import timedelta
from uuid import uuid4

import pytest
from django.core import mail
from django.utils import timezone

from gpurent.core.emails import deliver_email, email_queue, email_send, emails_requeue_unsent
from gpurent.core.models import OutboundEmail

pytestmark = pytest.mark.django_db


def queued(key="hello:1"):
    return email_queue(key=key, to="a@example.com", template="test_hello", context={"name": "Ada"})


def rendered_but_never_sent():
    # Rendered after commit, then the process died before (or while) a worker could send it.
    email = queued()
    OutboundEmail.objects.filter(pk=email.pk).update(subject="Hello from the shop", text="Hello Ada.", html="<p>Hi</p>")
    return email


def test_deliver_email_takes_over_the_claim_of_a_worker_that_died(settings):
    email = rendered_but_never_sent()
    long_ago = timezone.now() - timedelta(seconds=settings.TASKS_RECLAIM_AFTER_SECONDS + 1)
    OutboundEmail.objects.filter(pk=email.pk).update(claimed_at=long_ago)
    assert email_send(email.pk) is True
    assert email_send(email.pk) is False
    assert len(mail.outbox) == 1
    assert OutboundEmail.objects.get(pk=email.pk).sent_at is not None


def test_deliver_email_leaves_a_fresh_claim_to_its_worker():
    email = rendered_but_never_sent()
    OutboundEmail.objects.filter(pk=email.pk).update(claimed_at=timezone.now())
    assert email_send(email.pk) is False
    assert mail.outbox == []


def test_the_same_task_run_again_after_its_worker_died_takes_over_its_own_claim_at_once():
    # Issue 32: the task is retried about a minute after its worker died (core/tasks.py), long before the claim
    # its first attempt left is old enough for anyone else to take over.
    email = rendered_but_never_sent()
    OutboundEmail.objects.filter(pk=email.pk).update(claimed_at=timezone.now(), claimed_by="task-1")
    assert email_send(email.pk, claimant="task-2") is False  # another task's fresh claim: its worker may be sending
    assert email_send(email.pk) is False
    assert email_send(email.pk, claimant="task-1") is True
    assert len(mail.outbox) == 1


def test_the_worker_task_sends_in_its_own_name():
    email = rendered_but_never_sent()
    result = deliver_email.enqueue(email.pk)  # run at once by the test settings' backend
    assert result.return_value is True
    assert OutboundEmail.objects.get(pk=email.pk).claimed_by == str(result.id)
    assert len(mail.outbox) == 1


def test_sweep_requeues_an_email_no_worker_sent_once_per_period(settings, django_capture_on_commit_callbacks):
    email = rendered_but_never_sent()
    later = timezone.now() + timedelta(seconds=settings.TASKS_RECLAIM_AFTER_SECONDS + 1)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert emails_requeue_unsent(now=timezone.now()) == 0  # too recent: its own task may still run
        assert emails_requeue_unsent(now=later) == 1
        assert emails_requeue_unsent(now=later) == 0  # requeued already in this period
    for callback in callbacks:
        callback()
    assert len(mail.outbox) == 1
    assert OutboundEmail.objects.get(pk=email.pk).sent_at is not None


def test_email_queue_renders_after_commit_not_inside_the_transaction(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        email = queued()
        # Inside the transaction only the row that claims the key exists: no template was rendered yet.
        assert OutboundEmail.objects.values_list("subject", "text").get(pk=email.pk) == ("", "")
        assert queued() is None  # a second call with the key does nothing, renders nothing
    assert len(callbacks) == 1
    callbacks[0]()
    email.refresh_from_db()
    assert email.subject == "Hello from the shop"
    assert "Hello Ada." in email.text
    assert len(mail.outbox) == 1


def test_an_email_whose_process_died_before_rendering_is_rendered_and_sent_once_later(
    settings, django_capture_on_commit_callbacks
):
    # The transaction commits, then the process dies before its on-commit callbacks run (render + enqueue).
    with django_capture_on_commit_callbacks(execute=False):
        email = queued()
    assert OutboundEmail.objects.get(pk=email.pk).subject == ""
    later = timezone.now() + timedelta(seconds=settings.TASKS_RECLAIM_AFTER_SECONDS + 1)
    with django_capture_on_commit_callbacks(execute=True):
        assert emails_requeue_unsent(now=later) == 1
        assert emails_requeue_unsent(now=later) == 0
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert (message.subject, message.to) == ("Hello from the shop", ["a@example.com"])
    assert "Hello Ada." in message.body
    assert email_send(email.pk) is False  # rendered and sent: a late task sends nothing
    assert queued() is None  # the key stays taken: never a second email
    assert len(mail.outbox) == 1


def test_a_context_with_a_uuid_keyed_model_is_stored_and_read_again(django_capture_on_commit_callbacks, settings):
    from gpurent.core.emails import _loaded, _stored
    from gpurent.payments.models import PaymentIntent

    intent = PaymentIntent(pk=uuid4())
    stored = _stored({"intent": intent, "id": intent.pk})
    assert stored == {"intent": {"__model__": "payments.paymentintent", "pk": str(intent.pk)}, "id": str(intent.pk)}
    with pytest.raises(PaymentIntent.DoesNotExist):  # read again by its key (none saved here)
        _loaded(stored)
