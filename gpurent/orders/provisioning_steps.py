"""The steps an operator takes on a paid rental, the same at the provisioning desk and with `manage.py provision`:
which steps apply to the order's state, a refusal that names the state and what applies instead, and
`provision_step`, which carries one out through the services (QA walk 3, defects 9, 11 and 23).

The texts are the desks' and the command's, in English like the rest of the back office (decision 0418).
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

from gpurent.core.admin import with_zone
from gpurent.core.errors import InvalidRequest

from .access_correction import access_correct
from .access_details import runs_on_host
from .enums import Environment, PaymentStatus, ProvisioningStatus
from .errors import TransitionNotAllowed
from .history_notes import COULD_NOT_BE_PROVIDED
from .models import Order
from .provisioning import AccessDetails, order_authorized_keys, provision_fail, provision_ready, provision_start

__all__ = [
    "CORRECT",
    "FAILED",
    "JUPYTER_ENVIRONMENTS",
    "PREPARING",
    "READY",
    "STEP_LABELS",
    "provision_step",
    "provisioning_no_step",
    "provisioning_step_refusal",
    "provisioning_steps",
]

PREPARING, READY, FAILED, CORRECT = "preparing", "ready", "failed", "correct"

STEP_LABELS = {
    PREPARING: "Start preparing",
    READY: "Access is ready: start the term",
    FAILED: "Failed: refund to the balance and release the lots",
    CORRECT: "Correct the access details (the term is unchanged)",
}

# What a refused step would have done, after "it cannot be".
_REFUSED = {
    PREPARING: "started",
    READY: "given its access and started",
    FAILED: "failed and refunded",
    CORRECT: "given corrected access details",
}

# The images that come with Jupyter: a Jupyter URL is given only for them (an "Other" image is the customer's own
# description, which may ask for one).
JUPYTER_ENVIRONMENTS = frozenset({Environment.PYTORCH, Environment.OTHER})


def provisioning_steps(order: Order) -> list[str]:
    """The steps that apply to `order` now: a paid rental not started can be started, given its access at once, or
    failed with a refund; one being prepared given its access or failed; a Ready one prepared at the desk can have
    its access corrected. None for the rest (unpaid, an extension, ended, failed)."""
    if order.extends_id is not None or order.payment_status != PaymentStatus.PAID:
        return []
    status = order.provisioning_status
    if status == ProvisioningStatus.NOT_STARTED:
        return [PREPARING, READY, FAILED]
    if status == ProvisioningStatus.PREPARING:
        return [READY, FAILED]
    if status == ProvisioningStatus.READY and not runs_on_host(order):
        return [CORRECT]
    return []


def _state_text(order: Order) -> str:
    state = str(ProvisioningStatus(order.provisioning_status).label)
    if order.provisioning_status == ProvisioningStatus.READY and order.term_ends_at is not None:
        return f"{state} (term ends {with_zone(order.term_ends_at)})"
    return state


def provisioning_no_step(order: Order) -> str:
    """Why no step applies to `order` now, naming its state ("" when a step does)."""
    if provisioning_steps(order):
        return ""
    if order.extends_id is not None:
        return f"{order.ref} is an extension: it needs no machine of its own."
    if order.payment_status != PaymentStatus.PAID:
        payment = str(PaymentStatus(order.payment_status).label)
        return f"{order.ref} is not paid ({payment}): nothing is provisioned before it is paid."
    if order.provisioning_status == ProvisioningStatus.READY:
        return f"{order.ref} is {_state_text(order)}: a GPU host's agent made its account; correct it on the host."
    return f"{order.ref} is {_state_text(order)}: no provisioning step applies to it any more."


def provisioning_step_refusal(order: Order, step: str) -> str | None:
    """None when `step` applies to `order`, else why not, naming its state and what applies instead, e.g. "R-6853-2JZ2
    is Ready (term ends 13 Dec 2026, 17:08 UTC): it cannot be failed and refunded. What applies now: Correct the
    access details (the term is unchanged)."
    """
    steps = provisioning_steps(order)
    if step in steps:
        return None
    if not steps:
        return provisioning_no_step(order)
    refused = f"{order.ref} is {_state_text(order)}: it cannot be {_REFUSED.get(step, 'given this step')}."
    return f"{refused} What applies now: {'; '.join(STEP_LABELS[name] for name in steps)}."


def provision_step(
    *,
    order: Order,
    step: str,
    actor: AbstractBaseUser | None,
    access: AccessDetails | None = None,
    reason: str = "",
) -> Order:
    """Carry out `step` on `order`, as the desk and `manage.py provision` both do: `preparing`, `ready` (started
    first when it is not, in the same transaction), `failed` (refunded to the balance through `provision_fail`;
    an empty `reason` gives the customer the standard sentence in their language) or `correct`.

    Raises:
        TransitionNotAllowed: the step does not apply to the order's state; the message names the state and what
            applies (also when the order moved while the step was being taken).
        InvalidRequest: the access details are incomplete or invalid, or a Jupyter URL for an image without it.
    """
    current = Order.objects.select_related("gpu", "owner").get(pk=order.pk)
    refusal = provisioning_step_refusal(current, step)
    if refusal is not None:
        raise TransitionNotAllowed(refusal)
    details = access or AccessDetails("", 22, "")
    if details.jupyter_url.strip() and current.environment not in JUPYTER_ENVIRONMENTS:
        environment = current.get_environment_display()
        raise InvalidRequest(f"The {environment} image has no Jupyter: leave the Jupyter URL empty.")
    try:
        if step == PREPARING:
            return provision_start(order=current, actor=actor)
        if step == FAILED:
            return provision_fail(order=current, actor=actor, reason=reason.strip() or COULD_NOT_BE_PROVIDED)
        if step == CORRECT:
            return access_correct(order=current, actor=actor, access=details)
        details.validated(order_keys=order_authorized_keys(current))  # refused before the order moves
        with transaction.atomic():
            if current.provisioning_status == ProvisioningStatus.NOT_STARTED:
                current = provision_start(order=current, actor=actor)
            return provision_ready(order=current, actor=actor, access=details)
    except TransitionNotAllowed:
        # The order moved since it was read (another operator, the sweep, a provisioner): say where it is now.
        moved = provisioning_step_refusal(Order.objects.get(pk=order.pk), step)
        raise TransitionNotAllowed(moved or TransitionNotAllowed.default_message) from None
