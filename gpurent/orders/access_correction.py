"""Correcting the access details of a Ready rental (QA walk 3, defect 9): a wrong host, port or user, a new password
or key, found after "Access is ready". With its audit row and an e-mail to the customer in their language; the term
is unchanged. The provisioning desk and `manage.py provision --correct` call it through `provisioning_steps`.
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

from gpurent.core.audit import audit_record
from gpurent.core.errors import InvalidRequest
from gpurent.core.locks import lock_rows

from .access_details import ACCESS_CHANGES, runs_on_host
from .enums import ProvisioningStatus
from .errors import TransitionNotAllowed
from .installed_keys import key_fingerprints
from .models import Order, OrderAccess
from .notifications import email_key, order_notify
from .provisioning import AccessDetails, order_authorized_keys

__all__ = ["access_correct"]


def _summary(access: OrderAccess) -> dict[str, object]:
    """The audit's view of an access: what was given, never the secret."""
    return {
        "host": access.host,
        "port": access.port,
        "username": access.username,
        "auth": "public key" if access.public_key else "one-time password",
        # Whether one was given (still to reveal, or revealed), never which.
        "one_time_password": bool(access.one_time_secret) or access.revealed_at is not None,
        "ssh_keys": key_fingerprints(access.public_key),
        "jupyter": bool(access.jupyter_url),
    }


def access_correct(*, order: Order, actor: AbstractBaseUser | None, access: AccessDetails) -> Order:
    """Correct the access details of the Ready rental `order` (a wrong host, port or user; a new password or key).

    Host, port and user are replaced. The login is replaced only when a key or a password is given (a new
    password is shown once again, from the start); left empty, the login given before is kept, and so is the
    Jupyter URL when none is given. The term does not move. The audit row records what changed (never the
    secret) and the customer is e-mailed, once per correction, in their language.

    Raises:
        InvalidRequest: incomplete or invalid details, or nothing that differs from the access given.
        TransitionNotAllowed: the rental is not Ready, or a GPU host's agent made its account.
    """
    new_login = bool(access.public_key.strip() or access.one_time_secret)
    with transaction.atomic():
        lock_rows((Order, [order.pk]))  # the order only (docs/money.md)
        locked = Order.objects.select_related("owner", "gpu").get(pk=order.pk)
        if locked.provisioning_status != ProvisioningStatus.READY or runs_on_host(locked):
            refusal = f"{locked.ref}: only a Ready rental prepared at the desk has its access corrected."
            raise TransitionNotAllowed(refusal)
        details = access.validated(order_keys=order_authorized_keys(locked), login_kept=not new_login)
        # The customer may be revealing the password at this moment (`rental.access_reveal_secret` locks this row).
        current = OrderAccess.objects.select_for_update().get(order=locked)
        before = _summary(current)
        differs = {
            "host": current.host != details.host,
            "port": current.port != details.port,
            "user": current.username != details.username,
            "login": new_login,
            "jupyter": bool(details.jupyter_url) and current.jupyter_url != details.jupyter_url,
        }
        changed = [name for name in ACCESS_CHANGES if differs[name]]
        current.host, current.port, current.username = details.host, details.port, details.username
        current.jupyter_url = details.jupyter_url or current.jupyter_url
        if new_login:
            current.public_key, current.one_time_secret = details.public_key, details.one_time_secret
            current.revealed_at = None
        if not changed:
            raise InvalidRequest("Nothing to correct: these are the access details the rental has.")
        current.save(
            update_fields=["host", "port", "username", "jupyter_url", "public_key", "one_time_secret", "revealed_at"]
        )
        entry = audit_record(
            actor=actor,
            action="provisioning.access_corrected",
            target=locked,
            before=before,
            after={**_summary(current), "changed": changed},
        )
        told = [*changed, "password"] if new_login and details.one_time_secret else changed
        key = f"{email_key('access-corrected', locked.ref)}@{entry.pk}"  # each correction is e-mailed once
        order_notify(locked, "access_corrected", changed=told, key=key)
    return locked
