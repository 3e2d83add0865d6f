"""A rental without a GPU host after its term: the sweep ends it and hides its access, but only an operator can take
the customer's access off the machine (QA walk 2). The operators are e-mailed when such a term ends, the rental
waits on the provisioning desk ("Access to remove") and on the dashboard until an operator marks its access
removed, and the ended rental's page then gives the date. A host's agent revokes its own rentals (gpurent.hosts).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone

from gpurent.core.audit import audit_record, snapshot
from gpurent.core.emails import email_operators
from gpurent.core.errors import InvalidRequest
from gpurent.core.locks import lock_rows

from .access_details import access_given
from .enums import ProvisioningStatus
from .models import Order

__all__ = ["access_removal_tell_operators", "access_removed_mark", "access_to_remove", "needs_access_removed"]


def access_to_remove(queryset: QuerySet[Order] | None = None) -> QuerySet[Order]:
    """The ended rentals without a GPU host whose access no operator has marked removed yet."""
    queryset = Order.objects.all() if queryset is None else queryset
    return queryset.filter(
        provisioning_status=ProvisioningStatus.ENDED,
        host_rental__isnull=True,
        extends__isnull=True,
        access_removed_at__isnull=True,
    )


def needs_access_removed(order: Order) -> bool:
    """Whether `order` waits for an operator to remove its access (as `access_to_remove` selects)."""
    # The hosts app's row, reached backwards: orders does not import hosts (hosts imports orders).
    return (
        order.provisioning_status == ProvisioningStatus.ENDED
        and order.extends_id is None
        and order.access_removed_at is None
        and getattr(order, "host_rental", None) is None
    )


def access_removal_tell_operators(order: Order) -> None:
    """E-mail the operators (as for machine requests) that `order`'s term ended and its access waits to be removed
    from the machine, once per order and operator, with the access that was given (`access_details.access_given`)
    and a link to the order's page at the provisioning desk."""
    site = settings.SITE_URL.rstrip("/")
    given = access_given(order)
    context = {
        "ref": order.ref,
        "customer": order.owner.email,
        "gpu": order.gpu.name,
        # Which machine and account to clean: host, port, user, the kind of login, the keys (never the secret).
        "access": given.lines() if given is not None else [],
        "order_url": site + reverse("admin:backoffice_provisioningdesk_change", args=[order.pk]),
        "queue_url": site + reverse("admin:backoffice_provisioningdesk_changelist") + "?queue=access",
    }
    email_operators(
        "provisioning", key=f"access-to-remove:{order.ref}", template="backoffice/access_to_remove", context=context
    )


def access_removed_mark(*, order: Order, actor: AbstractBaseUser) -> Order:
    """Record that `actor` removed the customer's access from the machine of the ended rental `order`, with its
    audit row; marking it again changes nothing.

    Raises:
        InvalidRequest: the term is not over, or the rental runs on a GPU host (its agent revokes it).
    """
    with transaction.atomic():
        lock_rows((Order, [order.pk]))  # the order only (docs/money.md)
        order = Order.objects.get(pk=order.pk)
        if order.access_removed_at is not None:
            return order
        if not needs_access_removed(order):
            # Desk-only text, in English like the desks (decision 0418).
            raise InvalidRequest("Only an ended rental without a GPU host has its access removed by an operator.")
        before = snapshot(order)
        order.access_removed_at = timezone.now()
        order.save(update_fields=["access_removed_at", "updated_at"])
        audit_record(
            actor=actor, action="provisioning.access_removed", target=order, before=before, after=snapshot(order)
        )
    return order
