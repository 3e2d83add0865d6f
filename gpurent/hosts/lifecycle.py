"""A rental's account on its host, from payment to wipe (decision 0360): made with the customer's keys and GPUs
when the order is paid (then the order is ready with no person involved), its expiry moved by extensions, its
processes stopped on request, revoked when the term ends or provisioning fails (then its GPUs return to stock),
and wiped after the retention period.

Every step is one agent call made with no database lock held, between two short transactions; each is safe to
repeat (the agent's operations are idempotent), is claimed first (`_claim`), so two workers do not make the
same call at once, and writes its outcome only if the rental is still in the state it began from (`_set`). A
failed call is tried again after `HOSTS_RETRY_SECONDS`; making an account gives up after the last pause, or at
once on a refusal that cannot change (the order fails and is refunded); revoking never gives up (operators are
told each time it fails again after the last pause).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from gpurent.core.audit import audit_record
from gpurent.core.errors import ApplicationError
from gpurent.core.notices import notify_operators
from gpurent.orders.enums import ProvisioningStatus
from gpurent.orders.errors import TransitionNotAllowed
from gpurent.orders.history_notes import HOST_FAILED
from gpurent.orders.models import MachineRequest, Order
from gpurent.orders.provisioning import (
    AccessDetails,
    order_authorized_keys,
    provision_fail,
    provision_ready,
    provision_start,
)

from .agent import agent_run
from .enums import RentalState
from .errors import AgentFailed, HostError
from .models import GpuHost, HostRental
from .placement import allocation_make, allocation_release, rental_username

__all__ = [
    "machine_request_carry",
    "rental_create",
    "rental_open",
    "rental_refresh",
    "rental_revoke",
    "rental_wipe",
]

FAILURE_REASON = HOST_FAILED


def _claim(rental: HostRental, state: str, now: datetime) -> bool:
    """Take the rental's next step for this worker: its attempt time moves past the longest call (making an
    account, `PROVISIONER_TIMEOUT_SECONDS`), so another worker's sweep skips it meanwhile; False when it is not
    due or in another state."""
    due = Q(next_attempt_at__lte=now) | Q(next_attempt_at__isnull=True)
    # From the later of the sweep's clock and the real one: a round that waited in the queue still leases
    # its step past the longest call (connect, the agent's lock wait, the environment, the answer).
    longest = settings.PROVISIONER_TIMEOUT_SECONDS + 2 * settings.HOSTS_SSH_TIMEOUT_SECONDS
    lease = max(now, timezone.now()) + timedelta(seconds=longest)
    if not HostRental.objects.filter(due, pk=rental.pk, state=state).update(next_attempt_at=lease):
        return False
    rental.next_attempt_at = lease
    return True


def _retry_at(attempts: int, now: datetime) -> datetime:
    pauses = settings.HOSTS_RETRY_SECONDS
    return now + timedelta(seconds=pauses[min(attempts, len(pauses)) - 1])


def _host_expiry(order: Order, now: datetime) -> date:
    """The account's expiry on the host: the day after the term ends (a date, in UTC). The shop revokes on
    time; this is the safety net that closes the account within a day when the shop is down."""
    end = order.term_ends_at or now + timedelta(days=order.term_days)
    return (end + timedelta(days=1)).date()


def rental_open(order: Order) -> HostRental | None:
    """Start provisioning a paid order of a host-managed model: `preparing`, and a pending account.

    An order for which the customer chose no SSH key cannot get an account (the hosts' accounts take keys
    only): it stays `preparing` at the provisioning desk and operators are told.
    """
    if order.provisioning_status == ProvisioningStatus.NOT_STARTED:
        order = provision_start(order=order, actor=None)
    if not order.ssh_keys.exists():
        notify_operators(HostError(detail=f"order {order.ref} has no SSH key: provide its access at the desk"))
        return None
    rental, _created = HostRental.objects.get_or_create(
        order=order, defaults={"username": rental_username(order), "next_attempt_at": timezone.now()}
    )
    return rental


def rental_create(rental: HostRental, *, now: datetime | None = None) -> None:
    """One attempt at making the pending rental's account; on success the order becomes ready."""
    now = now or timezone.now()
    if not _claim(rental, RentalState.PENDING, now):
        return
    order = Order.objects.select_related("gpu").get(pk=rental.order_id)
    if order.provisioning_status != ProvisioningStatus.PREPARING:
        _not_to_make(rental, order)
        return
    expires = _host_expiry(order, now)
    keys = order_authorized_keys(order)
    try:
        rental = allocation_make(rental)
    except TransitionNotAllowed:  # no longer pending, or the order no longer preparing: nothing to make
        return
    try:
        host = rental.host_or_error()
        answer = _agent_create(host, rental, order, keys, expires)
    except ApplicationError as error:  # HostError, or NoHostFree from the allocation
        _attempt_failed(rental, order, error, now)
        return
    try:
        with transaction.atomic():
            _ready(rental, order, host, keys, expires, answer, now)
    except TransitionNotAllowed:  # the order moved during the call (failed at the desk, or made ready already)
        _not_to_make(rental, Order.objects.get(pk=order.pk))


def _not_to_make(rental: HostRental, order: Order) -> None:
    """The pending rental's order is no longer preparing. Failed or ended: its account (made or half made) is
    revoked. Made ready by an operator at the desk: its GPUs stay held until the term ends, then revoked."""
    if order.provisioning_status in (ProvisioningStatus.FAILED, ProvisioningStatus.ENDED):
        _set(rental, expect=RentalState.PENDING, state=RentalState.REVOKING, attempts=0, next_attempt_at=timezone.now())
    elif order.provisioning_status == ProvisioningStatus.READY and order.term_ends_at is not None:
        _set(rental, expect=RentalState.PENDING, next_attempt_at=order.term_ends_at)


def _ready(
    rental: HostRental, order: Order, host: GpuHost, keys: str, expires: date, answer: dict[str, Any], now: datetime
) -> None:
    """The account is made: the order is ready (its lock first, as everywhere), then the rental is active."""
    access = AccessDetails(host.address, host.port, rental.username, public_key=keys)
    provision_ready(order=order, actor=None, access=access, now=now)
    fields = {"attempts": 0, "next_attempt_at": None, "last_error": "", "last_result": answer}
    _set(rental, expect=RentalState.PENDING, state=RentalState.ACTIVE, host_expires_on=expires, **fields)
    audit_record(
        actor=None,
        action="hosts.rental_created",
        target=rental,
        after={"host": host.name, "gpus": rental.gpu_indices, "expires": expires.isoformat()},
    )


def _attempt_failed(rental: HostRental, order: Order, error: ApplicationError, now: datetime) -> None:
    attempts = rental.attempts + 1
    detail = (error.detail or error.message)[:500]
    # The agent refused the arguments or found a conflict (exit 2 or 3): asking again cannot succeed.
    final = isinstance(error, AgentFailed) and error.exit_code in (2, 3)
    if attempts <= len(settings.HOSTS_RETRY_SECONDS) and not final:
        _set(
            rental,
            expect=RentalState.PENDING,
            attempts=attempts,
            next_attempt_at=_retry_at(attempts, now),
            last_error=detail,
        )
        return
    # The last attempt failed: the existing failure path first (refunded; its GPUs, if any, stay held), then
    # whatever the host may have made is revoked, and only then do the GPUs return. A worker that dies in
    # between leaves a failed order, whose pending rental the next round revokes.
    try:
        provision_fail(order=order, actor=None, reason=FAILURE_REASON)
    except TransitionNotAllowed:  # an operator failed it at the desk meanwhile
        pass
    else:
        notify_operators(
            HostError(detail=f"order {order.ref} failed and was refunded after {attempts} attempts: {detail}")
        )
    _set(
        rental,
        expect=RentalState.PENDING,
        attempts=0,
        last_error=detail,
        state=RentalState.REVOKING,
        next_attempt_at=now,
    )
    rental_revoke(rental, now=now)


def rental_revoke(rental: HostRental, *, now: datetime | None = None) -> None:
    """One attempt at revoking the account (keys removed, account expired, processes killed, GPU grants
    dropped); on success its GPUs return to stock and the home directory waits for the retention period."""
    now = now or timezone.now()
    if not _claim(rental, RentalState.REVOKING, now):
        return
    answer: dict[str, object] = {}
    if rental.host is not None:
        try:
            answer = agent_run(rental.host, "revoke", rental.username, rental=rental)
        except HostError as error:
            attempts = rental.attempts + 1
            detail = (error.detail or error.message)[:500]
            _set(
                rental,
                expect=RentalState.REVOKING,
                attempts=attempts,
                next_attempt_at=_retry_at(attempts, now),
                last_error=detail,
            )
            if attempts > len(settings.HOSTS_RETRY_SECONDS):
                notify_operators(HostError(detail=f"{rental.username}: revoking failed {attempts} times: {detail}"))
            return
    allocation_release(rental)
    with transaction.atomic():
        fields = {"last_result": answer} if rental.host is not None else {}
        done = {"attempts": 0, "next_attempt_at": None, "last_error": "", "revoked_at": now}
        _set(rental, expect=RentalState.REVOKING, state=RentalState.REVOKED, **done, **fields)
        audit_record(actor=None, action="hosts.rental_revoked", target=rental, after={"host": str(rental.host or "")})


def rental_refresh(rental: HostRental, *, now: datetime | None = None) -> None:
    """Make the active account on its host what it should be again, with the agent's idempotent create: its
    expiry the day after the current term end (a paid extension moved it), its GPU grants (device files made
    anew lose their ACLs when the host reboots), its keys. Run when marked due (`next_attempt_at`) by
    `HostProvisioner.extended` or by a host check that saw the host boot again."""
    now = now or timezone.now()
    if rental.host is None or not _claim(rental, RentalState.ACTIVE, now):
        return
    order = Order.objects.get(pk=rental.order_id)
    wanted = _host_expiry(order, now)
    try:
        answer = _agent_create(rental.host, rental, order, order_authorized_keys(order), wanted)
    except HostError as error:
        attempts = rental.attempts + 1
        retry = {"attempts": attempts, "next_attempt_at": _retry_at(attempts, now), "last_error": error.detail[:500]}
        _set(rental, expect=RentalState.ACTIVE, **retry)
        return
    done = {"attempts": 0, "next_attempt_at": None, "last_error": "", "last_result": answer}
    _set(rental, expect=RentalState.ACTIVE, host_expires_on=wanted, **done)


def _agent_create(host: GpuHost, rental: HostRental, order: Order, keys: str, expires: date) -> dict[str, Any]:
    """The agent's create for this rental: its account, GPUs, keys (on stdin), expiry and environment."""
    gpus = ",".join(str(index) for index in rental.gpu_indices)
    arguments = ["create", rental.username, "--gpus", gpus, "--expires", expires.isoformat()]
    arguments += ["--environment", order.environment]
    # The host may prepare the chosen environment: the call may take up to the provisioner's timeout.
    return agent_run(host, *arguments, stdin=keys + "\n", rental=rental, timeout=settings.PROVISIONER_TIMEOUT_SECONDS)


def rental_wipe(rental: HostRental, *, now: datetime | None = None) -> None:
    """Delete the revoked account and its home directory once the retention period has passed."""
    now = now or timezone.now()
    if rental.host is None or not _claim(rental, RentalState.REVOKED, now):
        return
    allocation_release(rental)  # released at the revoke already; never leave GPUs held by a wiped account
    try:
        answer = agent_run(rental.host, "wipe", rental.username, rental=rental)
    except HostError as error:
        attempts = rental.attempts + 1
        _set(
            rental,
            expect=RentalState.REVOKED,
            attempts=attempts,
            next_attempt_at=_retry_at(attempts, now),
            last_error=error.detail[:500],
        )
        return
    done = {"wiped_at": now, "next_attempt_at": None, "last_error": "", "last_result": answer}
    _set(rental, expect=RentalState.REVOKED, state=RentalState.WIPED, **done)


def machine_request_carry(request: MachineRequest) -> None:
    """Stop or restart the rental's processes on its host; the request is handled once the agent did it (a
    failure leaves it open for the next sweep and the desk)."""
    rental = HostRental.objects.select_related("host").filter(order_id=request.order_id).first()
    if request.handled_at is not None or rental is None or rental.host is None or rental.state != RentalState.ACTIVE:
        return
    try:
        agent_run(rental.host, request.kind, rental.username, rental=rental)
    except HostError:
        return
    MachineRequest.objects.filter(pk=request.pk, handled_at__isnull=True).update(handled_at=timezone.now())


def _set(rental: HostRental, *, expect: str, **fields: object) -> bool:
    """Write `fields` if the rental is still in state `expect` (a sweep or the desk may have moved it during
    an agent call); False, and nothing written, when it is not."""
    if not HostRental.objects.filter(pk=rental.pk, state=expect).update(updated_at=timezone.now(), **fields):
        return False
    for name, value in fields.items():
        setattr(rental, name, value)
    return True
