"""A paid rental that no GPU host takes waits at the provisioning desk for an operator to prepare its machine: the
operators are e-mailed, once per order, when it starts to wait (QA walk 3, defect 7). A chain watcher or the balance
may pay an order at night; the dashboard's counter alone told nobody.

`ManualProvisioner.start` tells them as the order is handed to it (right after the payment commits); the command
provisioner does when its command did not give the access, so the order waits at the desk after all.
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils import translation

from gpurent.core.admin import with_zone
from gpurent.core.emails import email_operators

from .models import Order

__all__ = ["machine_to_prepare_tell_operators"]


def machine_to_prepare_tell_operators(order: Order, *, why: str = "") -> None:
    """E-mail the provisioning operators (as for machine requests) that the paid rental `order` waits at the desk
    for its machine, once per order and operator (`machine-to-prepare:<ref>:<address>`), with what to prepare and
    links to its page and to the desk. `why`: a line on why it waits, e.g. the provisioning command's exit."""
    site = settings.SITE_URL.rstrip("/")
    language = order.owner.email_language()
    # In the back office's language, whatever the request that paid it (the e-mail is rendered in English too).
    with translation.override(settings.LANGUAGE_CODE):
        environment = str(order.get_environment_display())
        keys = [f"{key.name} {key.fingerprint}" for key in order.ssh_keys.all()]
        context = {
            "ref": order.ref,
            "customer": order.owner.email,
            "language": f"{dict(settings.LANGUAGES).get(language, language)} ({language})",
            "gpu": order.gpu.name,
            "lots": order.lots,
            "cards": order.cards,
            "term_days": order.term_days,
            "environment": f"{environment}: {order.environment_note}" if order.environment_note else environment,
            "keys": keys,
            "paid": with_zone(order.paid_at),
            "why": why,
            "order_url": site + reverse("admin:backoffice_provisioningdesk_change", args=[order.pk]),
            "queue_url": site + reverse("admin:backoffice_provisioningdesk_changelist"),
        }
    email_operators(
        "provisioning", key=f"machine-to-prepare:{order.ref}", template="backoffice/machine_to_prepare", context=context
    )
