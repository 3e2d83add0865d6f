"""Outgoing email: queued in the transaction that decides it, sent after commit, each once.

`email_queue` writes an `OutboundEmail` row keyed by what the email is about (e.g. `order-paid:R-7KQ3-M9XA`)
— a second call with the same key does nothing, not even render — and, when the transaction commits,
renders its templates onto the row and hands its id to the background worker (`deliver_email` task). The
worker claims the row before sending (`claimed_at`) and marks it sent after, so a retry or a second worker
does not send it twice; a claim older than `TASKS_RECLAIM_AFTER_SECONDS` belongs to a worker that died and
is taken over. `emails_requeue_unsent`
(run by the sweep) queues again the rows no worker sent, e.g. when the process died before the task was
enqueued. A worker killed after the mail server accepted the message but before `sent_at` was written
sends it again on the retry: at least once after such a crash, never twice otherwise. Text and HTML bodies
come from templates, translated in the recipient's language.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django_tasks import task

from .models import OutboundEmail

__all__ = ["deliver_email", "email_queue", "emails_requeue_unsent"]

logger = logging.getLogger(__name__)


def email_queue(
    *, key: str, to: str, template: str, context: dict[str, Any], language: str | None = None, new: bool = False
) -> OutboundEmail | None:
    """Queue the email `template` (`<template>_subject.txt`, `.txt`, `.html` under templates/emails/) for `to`.

    Returns the new row, or None when an email with this key was queued before (it is never sent twice, and
    its templates are not rendered again). The templates are rendered after the transaction commits, not
    inside it (the caller's transaction may hold money locks); the row is sent only once rendered.
    `new`: the key names something created in the caller's transaction, so it cannot exist yet: one INSERT
    instead of a read and an insert (the unique key still refuses a duplicate).
    """
    # Customers' emails pass the account's language; without one, the language of the request that queues it.
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    if new:
        email = OutboundEmail.objects.create(key=key, to=to)
    else:
        email, created = OutboundEmail.objects.get_or_create(key=key, defaults={"to": to})
        if not created:
            return None

    def render_and_enqueue() -> None:
        with translation.override(language):
            full_context = {"brand_name": settings.BRAND_NAME, **context}
            subject = render_to_string(f"emails/{template}_subject.txt", full_context).strip()
            text = render_to_string(f"emails/{template}.txt", full_context)
            html = render_to_string(f"emails/{template}.html", full_context)
        # The rendered row and its delivery task commit together: one disk flush instead of two (decision 0205).
        with transaction.atomic():
            OutboundEmail.objects.filter(pk=email.pk, subject="").update(subject=subject[:200], text=text, html=html)
            deliver_email.enqueue(email.pk)

    transaction.on_commit(render_and_enqueue)
    return email


@task()
def deliver_email(email_id: int) -> bool:
    """Send one queued email if it was not sent yet; True when this call sent it."""
    now = timezone.now()
    claimed = (
        OutboundEmail.objects.filter(pk=email_id, sent_at__isnull=True)
        .exclude(subject="")
        .filter(Q(claimed_at__isnull=True) | Q(claimed_at__lt=_stale_before(now)))
        .update(claimed_at=now)
    )
    if claimed != 1:
        return False
    email = OutboundEmail.objects.get(pk=email_id)
    message = EmailMultiAlternatives(email.subject, email.text, settings.DEFAULT_FROM_EMAIL, [email.to])
    message.attach_alternative(email.html, "text/html")
    try:
        message.send()
    except Exception:
        # Not sent after all: release the claim so the next run of the worker retries it.
        OutboundEmail.objects.filter(pk=email_id).update(claimed_at=None)
        logger.exception("email %s could not be sent", email.key)
        raise
    OutboundEmail.objects.filter(pk=email_id).update(sent_at=timezone.now())
    return True


def _stale_before(now: datetime) -> datetime:
    return now - timedelta(seconds=settings.TASKS_RECLAIM_AFTER_SECONDS)


def emails_requeue_unsent(*, now: datetime) -> int:
    """Queue again the emails that no worker sent or holds, at most once per reclaim period; returns how many."""
    stale = _stale_before(now)
    unsent = (
        OutboundEmail.objects.filter(sent_at__isnull=True, created_at__lt=stale)
        .exclude(subject="")  # never rendered (its process died right after commit): nothing to send
        .filter(Q(claimed_at__isnull=True) | Q(claimed_at__lt=stale))
        .filter(Q(requeued_at__isnull=True) | Q(requeued_at__lt=stale))
    )
    requeued = 0
    for email_id in unsent.values_list("pk", flat=True):
        # Conditional, so two sweeps at once queue it once.
        if unsent.filter(pk=email_id).update(requeued_at=now):
            requeued += 1
            transaction.on_commit(partial(deliver_email.enqueue, email_id))
    return requeued
