"""The running rental: the customer's one-time password and stop/restart requests while the term runs, the end of
a term that is over, and the reminder 24 hours before it. Provisioning (getting to `ready`) is `provisioning.py`.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gpurent.core.errors import InvalidRequest
from gpurent.core.models import OutboundEmail

from .access_removal import access_removal_tell_operators, needs_access_removed
from .enums import ProvisioningStatus, Track
from .history_notes import TERM_ENDED
from .models import MachineRequest, MachineRequestKind, Order, OrderAccess
from .notifications import email_key, order_notify
from .provisioning import machine_request_run
from .services import order_transition

__all__ = [
    "TERM_END_NOTICE",
    "access_reveal_secret",
    "machine_request_create",
    "orders_end_terms",
    "orders_remind_term_end",
]


def _due_orders(*, now: datetime, ending_before: datetime) -> list[int]:
    return list(
        Order.objects.filter(provisioning_status=ProvisioningStatus.READY, term_ends_at__lte=ending_before).values_list(
            "pk", flat=True
        )
    )


def orders_end_terms(*, now: datetime | None = None) -> int:
    """End every term that is over: the order becomes `ended`, access is closed, the lots return to stock; the
    operators are e-mailed to remove the access of a rental without a GPU host from its machine.

    Idempotent and safe on several machines: each order is locked with SKIP LOCKED and re-checked.
    """
    now = now or timezone.now()
    ended = 0
    for pk in _due_orders(now=now, ending_before=now):
        with transaction.atomic():
            order = (
                Order.objects.select_for_update(skip_locked=True)
                .filter(pk=pk, provisioning_status=ProvisioningStatus.READY, term_ends_at__lte=now)
                .first()
            )
            if order is None:
                continue
            order = order_transition(
                order=order, track=Track.PROVISIONING, to=ProvisioningStatus.ENDED, reason=TERM_ENDED, now=now
            )
            OrderAccess.objects.filter(order=order).update(one_time_secret="", jupyter_url="")
            if needs_access_removed(order):
                access_removal_tell_operators(order)  # no host's agent revokes it: an operator does, on the machine
            ended += 1
    return ended


def _reminder_key(order: Order) -> str:
    """The outbox key of the 24-hour reminder of `order`'s current term end.

    The first term keeps the plain key (`order-ending:<ref>`, as reminders were always keyed); a term moved by
    a paid extension adds its new end, so an extended rental is reminded again before the new end, once.
    """
    key = email_key("ending", order.ref)
    first_end = order.term_starts_at + timedelta(days=order.term_days) if order.term_starts_at else None
    if order.term_ends_at is not None and order.term_ends_at != first_end:
        key += f"@{order.term_ends_at:%Y%m%dT%H%M%S}"
    return key


# How long before a term's end the customer is reminded (an e-mail; the rental page says it too).
TERM_END_NOTICE = timedelta(hours=24)


def orders_remind_term_end(*, now: datetime | None = None) -> int:
    """Email each customer whose term ends within 24 hours, once per order and term end; returns how many
    were queued. A rental extended after its reminder gets another one before its new end.

    Orders already reminded for their current end are left out after two queries (the orders in the window,
    then which of their reminder keys exist), so a sweep every minute renders and queues nothing for them.
    """
    now = now or timezone.now()
    due = list(
        Order.objects.filter(
            provisioning_status=ProvisioningStatus.READY,
            term_ends_at__gt=now,
            term_ends_at__lte=now + TERM_END_NOTICE,
        ).select_related("gpu", "owner")
    )
    keys = {order.pk: _reminder_key(order) for order in due}
    sent = set(OutboundEmail.objects.filter(key__in=keys.values()).values_list("key", flat=True))
    reminded = 0
    for order in due:
        if keys[order.pk] in sent:
            continue
        with transaction.atomic():
            order_notify(order, "ending", key=keys[order.pk])
        reminded += 1
    return reminded


def access_reveal_secret(*, order: Order) -> str | None:
    """Show the one-time password once: it is returned and erased in the same transaction."""
    with transaction.atomic():
        access = OrderAccess.objects.select_for_update().filter(order=order).first()
        if access is None or not access.one_time_secret:
            return None
        secret = access.one_time_secret
        access.one_time_secret = ""
        access.revealed_at = timezone.now()
        access.save(update_fields=["one_time_secret", "revealed_at"])
    return secret


def machine_request_create(*, order: Order, kind: str, note: str = "") -> MachineRequest:
    """Record a customer's stop or restart request for operators. It changes nothing about the term. While a
    request of the same kind still waits for the order, that request is the answer: asking again (a reload, a
    script) neither adds one nor e-mails the operators again.

    Raises:
        InvalidRequest: unknown kind, or the machine is not running.
    """
    if kind not in MachineRequestKind.values:
        raise InvalidRequest(_("Ask for a stop or a restart."))
    if order.provisioning_status != ProvisioningStatus.READY:
        raise InvalidRequest(_("The machine is not running, so there is nothing to stop or restart."))
    waiting = MachineRequest.objects.filter(order=order, kind=kind, handled_at__isnull=True).order_by("pk").first()
    if waiting is not None:
        return waiting
    request = MachineRequest.objects.create(order=order, kind=kind, note=note.strip()[:500])
    # Its provisioner carries it out after it commits (a host's agent stops the processes), or leaves it to
    # operators (the manual desk).
    transaction.on_commit(lambda: machine_request_run.enqueue(request.pk))
    return request
