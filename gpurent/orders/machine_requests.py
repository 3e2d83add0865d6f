"""A customer's stop or restart request as operators work it: the e-mail that tells them one waits, and marking
requests handled. The customer makes one with `rental.machine_request_create`; a host-managed rental's request is
carried out by its host's agent (`gpurent.hosts.lifecycle.machine_request_carry`) and needs no operator.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from gpurent.core.audit import audit_record, snapshot
from gpurent.core.emails import email_operators

from .access_details import access_given
from .models import MachineRequest

__all__ = ["machine_request_tell_operators", "machine_requests_mark_handled"]


def machine_request_tell_operators(request: MachineRequest) -> None:
    """E-mail the operators that a customer's request waits for them (once per request and operator), with links
    to the open requests of its order and to the order's page at the provisioning desk (its machine's access)."""
    if request.handled_at is not None:
        return
    order = request.order
    site = settings.SITE_URL.rstrip("/")
    requests_url = f"{site}{reverse('admin:orders_machinerequest_changelist')}?q={order.ref}"
    given = access_given(order)
    context = {
        "ref": order.ref,
        # The machine and account to stop or restart, as the access was given (never its secret).
        "access": given.lines() if given is not None else [],
        "kind": str(request.get_kind_display()),
        "note": request.note,
        "customer": order.owner.email,
        "gpu": order.gpu.name,
        "requests_url": requests_url,
        "order_url": site + reverse("admin:backoffice_provisioningdesk_change", args=[order.pk]),
    }
    email_operators(
        "provisioning", key=f"machine-request:{request.pk}", template="backoffice/machine_request", context=context
    )


def machine_requests_mark_handled(*, request_ids: Iterable[int], actor: AbstractBaseUser) -> int:
    """Mark the open requests among `request_ids` handled by `actor`, each with its audit row; returns how many
    (a request handled already, by an operator or a host's agent, is left as it is)."""
    handled = 0
    with transaction.atomic():
        open_requests = MachineRequest.objects.filter(pk__in=list(request_ids), handled_at__isnull=True)
        for request in open_requests.select_for_update():
            before = snapshot(request)
            request.handled_at = timezone.now()
            request.save(update_fields=["handled_at"])
            audit_record(
                actor=actor, action="machine_request.handled", target=request, before=before, after=snapshot(request)
            )
            handled += 1
    return handled
