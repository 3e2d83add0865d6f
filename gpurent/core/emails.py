"""Outgoing email: queued in the transaction that decides it, sent after commit, each once.

`email_queue` writes an `OutboundEmail` row keyed by what the email is about (e.g. `order-paid:R-7KQ3-M9XA`)
— a second call with the same key does nothing — with what renders it (template, language, context as JSON,
model instances as references), and, when the transaction commits, hands its id to the background worker
(`deliver_email` task), which renders the templates onto the row and sends it: the request that queues an
email renders nothing (decision 0250). The worker claims the row before sending (`claimed_at`) and marks it
sent after, so a retry or a second worker does not send it twice; the task's own claim is taken over when the
same task runs again after its worker died (retried within about a minute, `core.tasks`), and another task's claim
older than `TASKS_RECLAIM_AFTER_SECONDS` belongs to a worker that died too. `emails_requeue_unsent` (run
by the sweep) queues again the rows no worker sent, e.g. when the process died before the task was
enqueued. A worker killed after the mail server accepted the message but before `sent_at` was written
sends it again on the retry: at least once after such a crash, never twice otherwise. Text and HTML bodies
come from templates, translated in the recipient's language.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from functools import partial
from typing import Any
from uuid import UUID

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMultiAlternatives
from django.db import models, transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.functional import Promise
from django_tasks import TaskContext, task

from .models import OutboundEmail

__all__ = [
    "deliver_email",
    "email_enqueue",
    "email_operators",
    "email_queue",
    "email_send",
    "emails_requeue_unsent",
    "operator_emails",
]

logger = logging.getLogger(__name__)


def email_queue(
    *,
    key: str,
    to: str,
    template: str,
    context: dict[str, Any],
    language: str | None = None,
    new: bool = False,
    enqueue: bool = True,
) -> OutboundEmail | None:
    """Queue the email `template` (`<template>_subject.txt`, `.txt`, `.html` under templates/emails/) for `to`.

    Returns the new row, or None when an email with this key was queued before (it is never sent twice).
    The templates are rendered by the worker that sends it, never in the caller's transaction (which may hold
    money locks) nor in its request. `new`: the key names something created in the caller's transaction, so
    it cannot exist yet: one INSERT instead of a read and an insert (the unique key still refuses a duplicate).
    `enqueue=False`: the caller hands the row to the worker after commit itself (`email_enqueue`), e.g. in
    the write that flushes an unflushed commit (`core/durability.py`).
    """
    # Customers' emails pass the account's language; without one, the language of the request that queues it.
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    with translation.override(language):  # lazy strings (choice labels) in the recipient's language
        stored = {"template": template, "language": language, "context": _stored(context)}
    if new:
        email = OutboundEmail.objects.create(key=key, to=to, **stored)
    else:
        email, created = OutboundEmail.objects.get_or_create(key=key, defaults={"to": to, **stored})
        if not created:
            return None
    if enqueue:
        transaction.on_commit(partial(email_enqueue, email))
    return email


def email_enqueue(email: OutboundEmail) -> None:
    """Hand a queued email to the worker (after the transaction that queued it committed): one INSERT."""
    deliver_email.enqueue(email.pk)


_MODEL = "__model__"


def _stored(value: Any) -> Any:
    """`value` as JSON: a model instance becomes a reference read again when rendering, a lazy string text."""
    if isinstance(value, models.Model):
        pk = value.pk if isinstance(value.pk, int) else str(value.pk)  # a UUID key as text
        return {_MODEL: value._meta.label_lower, "pk": pk}
    if isinstance(value, Promise):
        return str(value)
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_stored(item) for item in value]
    if isinstance(value, dict):
        return {str(name): _stored(item) for name, item in value.items()}
    raise TypeError(f"an email's context holds only JSON values and model instances, not {type(value).__name__}")


def _loaded(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {_MODEL, "pk"}:
            return apps.get_model(value[_MODEL])._default_manager.get(pk=value["pk"])
        return {name: _loaded(item) for name, item in value.items()}
    if isinstance(value, list):
        return [_loaded(item) for item in value]
    return value


def _rendered(email_id: int) -> dict[str, str] | None:
    """The subject and bodies of a row not rendered yet, rendered from what it stores; None when rendered."""
    email = OutboundEmail.objects.filter(pk=email_id, subject="").exclude(template="").first()
    if email is None:
        return None
    return _render(email, _loaded(email.context))


def _render(email: OutboundEmail, context: dict[str, Any]) -> dict[str, str]:
    with translation.override(email.language or settings.LANGUAGE_CODE):
        full_context = {"brand_name": settings.BRAND_NAME, **context}
        subject = render_to_string(f"emails/{email.template}_subject.txt", full_context).strip()
        text = render_to_string(f"emails/{email.template}.txt", full_context)
        html = render_to_string(f"emails/{email.template}.html", full_context)
    return {"subject": (subject or email.key)[:200], "text": text, "html": html}


def _store_rendered(email_id: int, rendered: dict[str, str] | None) -> None:
    # Conditional, so two renderings at once write once. The context has done its work: the rendered text is
    # what is kept (and what the retention rules see).
    if rendered is not None:
        OutboundEmail.objects.filter(pk=email_id, subject="").update(**rendered, context={})


@task(takes_context=True)
def deliver_email(context: TaskContext, email_id: int) -> bool:
    """The worker's task: `email_send` in the name of this task, so that the same task run again after its worker
    died (`core.tasks`) takes over the claim its first attempt left, instead of waiting for the claim to age."""
    return email_send(email_id, claimant=str(context.task_result.id))


def email_send(email_id: int, *, claimant: str = "") -> bool:
    """Send one queued email if it was not sent yet (rendering it first if nobody did); True when this call sent it.

    The row is claimed first, so that two workers never both send it: a claim is taken over when it is older
    than `TASKS_RECLAIM_AFTER_SECONDS`, or at once when `claimant` (a task's id) left it itself.
    """
    _store_rendered(email_id, _rendered(email_id))
    now = timezone.now()
    free = Q(claimed_at__isnull=True) | Q(claimed_at__lt=_stale_before(now))
    if claimant:
        free |= Q(claimed_by=claimant)
    claimed = (
        OutboundEmail.objects.filter(pk=email_id, sent_at__isnull=True)
        .exclude(subject="")
        .filter(free)
        .update(claimed_at=now, claimed_by=claimant)
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
        OutboundEmail.objects.filter(pk=email_id).update(claimed_at=None, claimed_by="")
        # By id and template, never by key: some keys name a recipient's address.
        logger.exception("email %s (%s) could not be sent", email.pk, email.template or "rendered")
        raise
    OutboundEmail.objects.filter(pk=email_id).update(sent_at=timezone.now())
    logger.info("email %s (%s) sent", email.pk, email.template or "rendered")
    return True


def _stale_before(now: datetime) -> datetime:
    return now - timedelta(seconds=settings.TASKS_RECLAIM_AFTER_SECONDS)


def emails_requeue_unsent(*, now: datetime) -> int:
    """Queue again the emails that no worker sent or holds, at most once per reclaim period; returns how many."""
    stale = _stale_before(now)
    unsent = (
        OutboundEmail.objects.filter(sent_at__isnull=True, created_at__lt=stale)
        # Never rendered and nothing stored to render it (a row queued before templates were stored): nothing to send.
        .exclude(subject="", template="")
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


def operator_emails(role: str) -> list[str]:
    """Who is told of desk work: OPERATOR_EMAILS when it is set, else the active staff of the operators' group
    `role` (`payments`, `payouts`, `provisioning`, `support`), sorted, each once."""
    if settings.OPERATOR_EMAILS:
        return sorted(set(settings.OPERATOR_EMAILS))
    staff = get_user_model().objects.filter(is_active=True, is_staff=True, groups__name=role)
    return sorted(set(staff.values_list("email", flat=True)))


def email_operators(role: str, *, key: str, template: str, context: dict[str, Any]) -> None:
    """Queue the operators' e-mail `template` for each of `operator_emails(role)`, once per `key` and address
    (the e-mail's key is `<key>:<address>`), in the back office's language (English, decision 0418)."""
    for address in operator_emails(role):
        email_queue(
            key=f"{key}:{address}", to=address, template=template, language=settings.LANGUAGE_CODE, context=context
        )
