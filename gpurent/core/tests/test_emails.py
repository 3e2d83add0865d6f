import pytest
from django.core import mail
from django.db import transaction

from gpurent.core.emails import email_queue, email_send
from gpurent.core.models import OutboundEmail

pytestmark = pytest.mark.django_db


def test_email_queue_sends_after_commit_once_per_key(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        first = email_queue(key="hello:1", to="a@example.com", template="test_hello", context={"name": "Ada"})
        again = email_queue(key="hello:1", to="a@example.com", template="test_hello", context={"name": "Ada"})
        assert mail.outbox == []  # nothing leaves before the transaction commits
    assert first is not None
    assert again is None
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert (message.subject, message.to) == ("Hello from the shop", ["a@example.com"])
    assert "Hello Ada." in message.body
    assert "Hello Ada." in message.alternatives[0][0]  # type: ignore[attr-defined]
    assert email_send(first.pk) is False  # a second worker run sends nothing
    assert len(mail.outbox) == 1


def test_email_queue_in_a_rolled_back_transaction_sends_nothing(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        try:
            with transaction.atomic():
                email_queue(key="hello:2", to="a@example.com", template="test_hello", context={"name": "B"})
                raise RuntimeError("the action failed")
        except RuntimeError:
            pass
    assert mail.outbox == []
    assert not OutboundEmail.objects.exists()
