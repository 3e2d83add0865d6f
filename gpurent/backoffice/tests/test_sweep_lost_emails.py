"""The sweep sends an order e-mail whose process died between the order's commit and its rendering (issue 15).

Here rather than in core's e-mail tests: core must not import the back office (tests/test_architecture.py).
"""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from gpurent.backoffice.management.commands.sweep import sweep_once
from gpurent.core.models import OutboundEmail
from gpurent.orders.services import Contact, order_place

pytestmark = pytest.mark.django_db


def test_an_order_email_lost_in_a_crash_is_sent_by_the_sweep_with_the_order_read_again(
    django_user_model, gpu, settings, django_capture_on_commit_callbacks
):
    customer = django_user_model.objects.create_user("ada@example.com", "long enough passphrase", first_name="Ada")
    contact = Contact("Ada", "Lovelace", "ada@example.com")
    with django_capture_on_commit_callbacks(execute=False):  # committed; the process died before rendering
        order = order_place(
            owner=customer, gpu_slug=gpu.slug, term_days=7, lots=1, environment="pytorch", contact=contact
        )
    stored = OutboundEmail.objects.get(key__contains=order.ref)
    assert stored.subject == ""
    later = timezone.now() + timedelta(seconds=settings.TASKS_RECLAIM_AFTER_SECONDS + 1)
    with django_capture_on_commit_callbacks(execute=True):
        sweep_once(now=later)
        sweep_once(now=later)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ada@example.com"]
    assert order.ref in message.subject
    assert "Hello Ada," in message.body
    assert order.ref in message.body
