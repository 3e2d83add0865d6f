"""Provisioning: preparing a paid order's machine, access ready, failure with refund, and the provisioners that
run it (manual at the desk, or an operator's command as a background task). The running rental is `rental.py`.

Every step goes through `order_transition` (the transition table and the status history), writes an audit
row for operator actions, and queues the customer's email, all in one transaction. Access secrets are never
written to the audit log or to logs.
"""

from __future__ import annotations

import json
import logging
import shlex
import subprocess
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol, cast

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from django_tasks import task

from gpurent.core.audit import audit_record
from gpurent.core.errors import InvalidRequest
from gpurent.core.locks import lock_rows
from gpurent.ledger.models import LedgerAccount
from gpurent.ledger.services import REVENUE_RENTALS, customer_account, system_account, transfer_post

from .enums import PaymentStatus, ProvisioningStatus, Track
from .errors import TransitionNotAllowed
from .installed_keys import installed_keys_checked, key_fingerprints
from .machine_requests import machine_request_tell_operators
from .machine_to_prepare import machine_to_prepare_tell_operators
from .models import MachineRequest, Order, OrderAccess, ProvisioningRun
from .notifications import order_notify
from .services import order_transition

__all__ = [
    "AccessDetails",
    "CommandProvisioner",
    "ManualProvisioner",
    "Provisioner",
    "order_authorized_keys",
    "provision_fail",
    "provision_ready",
    "provision_start",
    "provisioner_for",
    "provisioner_from_settings",
    "provisioning_runs_reclaim",
]

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class AccessDetails:
    """Access to the machine: SSH with the installed public keys or a one-time password, and for
    environments that have one a Jupyter URL carrying its token."""

    host: str
    port: int
    username: str
    public_key: str = ""
    one_time_secret: str = ""
    jupyter_url: str = ""

    def validated(self, *, order_keys: str = "", login_kept: bool = False) -> AccessDetails:
        """Checked and trimmed; `order_keys` (the keys the customer chose at checkout) count as installed
        public keys when no other key is given. `login_kept`: a correction that keeps the login given before
        (`access_correction.access_correct`), so neither a key nor a password is needed.

        Raises:
            InvalidRequest: no host or user, a port out of range, an invalid public key, no way to log in, or a
                Jupyter URL that is not one.
        """
        host, username = self.host.strip(), self.username.strip()
        if not host or not username or any(char.isspace() for char in host + username):
            raise InvalidRequest(_("An SSH host and user are required, without spaces."))
        if not 1 <= self.port <= 65535:
            raise InvalidRequest(_("The SSH port must be between 1 and 65535."))
        public_key = installed_keys_checked(self.public_key) or ("" if login_kept else order_keys.strip())
        if not (public_key or self.one_time_secret or login_kept):
            raise InvalidRequest(_("Give the customer's installed public key or a one-time password."))
        jupyter_url = self.jupyter_url.strip()
        if jupyter_url and not jupyter_url.startswith(("https://", "http://")):
            raise InvalidRequest(_("The Jupyter URL must start with https:// or http://."))
        return AccessDetails(host, self.port, username, public_key, self.one_time_secret, jupyter_url)


def order_authorized_keys(order: Order) -> str:
    """The public keys the customer chose for this order, one per line, as an authorized_keys file holds them."""
    return "\n".join(key.public_key for key in order.ssh_keys.all())


def _locked(order: Order) -> Order:
    # The order only (`lock_rows` locks `of=("self",)`), not the GPU row every buyer's stock update needs.
    lock_rows((Order, [order.pk]))
    return Order.objects.select_related("gpu").get(pk=order.pk)


def provision_start(*, order: Order, actor: AbstractBaseUser | None) -> Order:
    """An operator (or a provisioner) starts preparing the machine of a paid order."""
    with transaction.atomic():
        order = order_transition(
            order=_locked(order), track=Track.PROVISIONING, to=ProvisioningStatus.PREPARING, actor=actor
        )
        audit_record(actor=actor, action="provisioning.preparing", target=order)
    return order


def provision_ready(
    *, order: Order, actor: AbstractBaseUser | None, access: AccessDetails, now: datetime | None = None
) -> Order:
    """Give the access details and start the term (exactly `term_days` × 24 h from now).

    Raises:
        InvalidRequest: incomplete access details.
        TransitionNotAllowed: the order is not being prepared.
    """
    details = access.validated(order_keys=order_authorized_keys(order))
    with transaction.atomic():
        order = order_transition(
            order=_locked(order), track=Track.PROVISIONING, to=ProvisioningStatus.READY, actor=actor, now=now
        )
        OrderAccess.objects.update_or_create(
            order=order,
            defaults={
                "host": details.host,
                "port": details.port,
                "username": details.username,
                "public_key": details.public_key,
                "one_time_secret": details.one_time_secret,
                "jupyter_url": details.jupyter_url,
                "revealed_at": None,
            },
        )
        # The audit row says what was given, never the secret itself.
        audit_record(
            actor=actor,
            action="provisioning.ready",
            target=order,
            after={
                "host": details.host,
                "port": details.port,
                "username": details.username,
                "auth": "public key" if details.public_key else "one-time password",
                "one_time_password": bool(details.one_time_secret),  # whether one was given, never which
                "ssh_keys": key_fingerprints(details.public_key),  # the keys installed, not only those chosen
                "jupyter": bool(details.jupyter_url),
                "term_ends_at": order.term_ends_at.isoformat() if order.term_ends_at else None,
            },
        )
    return order


def provision_fail(*, order: Order, actor: AbstractBaseUser | None, reason: str) -> Order:
    """The machine cannot be provided: the order fails, its lots return to stock, and its total goes back to
    the customer's balance through the ledger (`refund:<ref>`), all at once.

    Raises:
        TransitionNotAllowed: the order is neither being prepared nor paid and not started yet.
    """
    with transaction.atomic():
        # The money lock order (docs/money.md): the order, then the customer's account; never the revenue one.
        lock_rows((Order, [order.pk]), (LedgerAccount, [customer_account(order.owner_id).pk]))
        locked = _locked(order)
        if locked.payment_status != PaymentStatus.PAID:
            raise TransitionNotAllowed(_("Only a paid order can be refunded."))
        locked = order_transition(
            order=locked, track=Track.PROVISIONING, to=ProvisioningStatus.FAILED, actor=actor, reason=reason[:200]
        )
        transfer_post(
            reference=f"refund:{locked.ref}",
            debit=system_account(REVENUE_RENTALS),
            credit=customer_account(locked.owner),
            amount=locked.total,
            memo=f"refund: {reason}"[:200],
        )
        order_notify(locked, "refunded", amount=locked.total)
        audit_record(actor=actor, action="provisioning.failed", target=locked, after={"reason": reason})
    return locked


class Provisioner(Protocol):
    """Something that prepares machines for paid orders."""

    def start(self, order: Order) -> None:
        """Move a paid order to `preparing` and prepare its machine."""

    def resume(self, order: Order) -> None:
        """Prepare again the machine of an order whose last run died with its worker (it is `preparing`)."""

    def extended(self, rental: Order) -> None:
        """A paid extension moved `rental`'s term end: carry it to the machine."""

    def machine_request(self, request: MachineRequest) -> None:
        """Carry out a customer's stop or restart request, or leave it to operators (and e-mail them)."""


class ManualProvisioner:
    """The embedded default: operators prepare machines at the provisioning desk (they are e-mailed each paid
    rental); nothing runs by itself."""

    def start(self, order: Order) -> None:
        machine_to_prepare_tell_operators(order)

    def resume(self, order: Order) -> None:
        return None

    def extended(self, rental: Order) -> None:
        return None

    def machine_request(self, request: MachineRequest) -> None:
        machine_request_tell_operators(request)  # operators stop or restart it by hand


class CommandProvisioner:
    """Runs an operator's command for each paid order: `COMMAND ORDER_REF`, with the order's facts in the
    environment (`SSH_PUBLIC_KEYS`: the keys the customer chose, one authorized_keys line each). On exit 0
    with a last line of JSON `{"host", "port", "user", "public_key" | "password", "jupyter_url"?}` the access
    is given (with no "public_key", the customer's keys count as installed); otherwise the output is kept
    and the order waits at the desk in `preparing`."""

    def __init__(self, command: str, timeout_seconds: int = 600) -> None:
        self.command = shlex.split(command)
        self.timeout_seconds = timeout_seconds

    def start(self, order: Order) -> None:
        self._run(provision_start(order=order, actor=None))

    def resume(self, order: Order) -> None:
        # Once: an order that already has a second run, or whose run finished, is left alone.
        runs = list(order.provisioning_runs.order_by("-started_at", "-pk")[:2])
        if len(runs) == 1 and runs[0].exit_code is None:
            _mark_died(runs[0].pk)
            self._run(order)

    def extended(self, rental: Order) -> None:
        return None

    def machine_request(self, request: MachineRequest) -> None:
        machine_request_tell_operators(request)  # the command prepares machines only: operators do this by hand

    def _run(self, order: Order) -> None:
        run = ProvisioningRun.objects.create(order=order, command=" ".join(self.command))
        env = {
            "ORDER_REF": order.ref,
            "GPU": order.gpu.slug,
            "LOTS": str(order.lots),
            "CARDS": str(order.cards),
            "TERM_DAYS": str(order.term_days),
            "ENVIRONMENT": order.environment,
            "SSH_PUBLIC_KEYS": order_authorized_keys(order),
            "PATH": "/usr/local/bin:/usr/bin:/bin",
        }
        try:
            result = subprocess.run(  # noqa: S603 (the operator's configured command, no shell)
                [*self.command, order.ref], env=env, capture_output=True, text=True, timeout=self.timeout_seconds
            )
            exit_code, output = result.returncode, (result.stdout + result.stderr)
        except (OSError, subprocess.TimeoutExpired) as error:
            exit_code, output = -1, f"could not run: {error}"
        lines = [line for line in output.strip().splitlines() if line.strip()]
        access = self._access_from(lines[-1], order) if exit_code == 0 and lines else None
        # The output may contain the password: keep only what precedes the JSON line.
        kept = "\n".join(lines[:-1]) if access is not None else output
        ProvisioningRun.objects.filter(pk=run.pk).update(
            exit_code=exit_code, output=kept[-20_000:], finished_at=timezone.now()
        )
        if access is not None:
            provision_ready(order=order, actor=None, access=access)
        else:
            logger.warning("provisioner for %s exited %s; the order waits at the desk", order.ref, exit_code)
            why = f"The provisioning command exited {exit_code} without giving the access; its output is on the page."
            machine_to_prepare_tell_operators(order, why=why)

    @staticmethod
    def _access_from(line: str, order: Order) -> AccessDetails | None:
        try:
            data = json.loads(line)
            return AccessDetails(
                host=str(data["host"]),
                port=int(data.get("port", 22)),
                username=str(data["user"]),
                public_key=str(data.get("public_key", "")),
                one_time_secret=str(data.get("password", "")),
                jupyter_url=str(data.get("jupyter_url", "")),
            ).validated(order_keys=order_authorized_keys(order))
        except (ValueError, KeyError, TypeError, InvalidRequest):
            return None


def provisioner_from_settings() -> Provisioner:
    """`PROVISIONER = "manual"` (default) or `"command"` with `PROVISIONER_COMMAND`."""
    if settings.PROVISIONER == "command":
        return CommandProvisioner(settings.PROVISIONER_COMMAND, settings.PROVISIONER_TIMEOUT_SECONDS)
    return ManualProvisioner()


def provisioner_for(order: Order) -> Provisioner:
    """The provisioner of `order`'s GPU model: the host provisioner (`HOSTS_PROVISIONER`, gpurent.hosts) when
    the model has registered GPU hosts, otherwise the one `PROVISIONER` names. The host provisioner is found
    through its setting, so this app does not import the one that builds on it (DESIGN §10)."""
    hosts = import_string(settings.HOSTS_PROVISIONER)()
    return cast(Provisioner, hosts) if hosts.handles(order) else provisioner_from_settings()


# The output note of a run whose process died (marked by `provisioning_runs_reclaim`); exit_code stays empty.
DIED_NOTE = "[the process running this stopped before it finished; reclaimed by the sweep]"


@task()
def provision_paid_order(order_id: int) -> None:
    """Hand a newly paid order to the configured provisioner (enqueued after the payment commits).

    Safe to run again: a task the sweep requeued after its worker died (`core.tasks`) finds the order
    `preparing` and asks its provisioner to resume, which does its own work once more at most (the command
    provisioner reruns a run that died, once; the host provisioner retries a pending account).
    """
    order = Order.objects.select_related("gpu", "extends__gpu").get(pk=order_id)
    if order.extends is not None:
        # An extension needs no machine of its own: paying it moved its rental's term end, which the rental's
        # machine is told (a host account's expiry moves; nothing for the manual desk).
        if order.payment_status == PaymentStatus.PAID:
            provisioner_for(order.extends).extended(order.extends)
    elif order.provisioning_status == ProvisioningStatus.NOT_STARTED:
        provisioner_for(order).start(order)
    elif order.provisioning_status == ProvisioningStatus.PREPARING:
        provisioner_for(order).resume(order)


@task()
def machine_request_run(request_id: int) -> None:
    """Hand a customer's stop or restart request to its rental's provisioner (enqueued after it commits)."""
    request = MachineRequest.objects.select_related("order__gpu", "order__owner").get(pk=request_id)
    provisioner_for(request.order).machine_request(request)


def _mark_died(run_id: int, now: datetime | None = None) -> int:
    run = ProvisioningRun.objects.filter(pk=run_id, exit_code__isnull=True, finished_at__isnull=True)
    return run.update(finished_at=now or timezone.now(), output=DIED_NOTE)


def provisioning_runs_reclaim(*, now: datetime) -> int:
    """Mark the runs left unfinished for longer than `TASKS_RECLAIM_AFTER_SECONDS` as died, so the
    provisioning desk shows them; their task, requeued by `core.tasks.tasks_reclaim`, runs them again once."""
    cutoff = now - timedelta(seconds=settings.TASKS_RECLAIM_AFTER_SECONDS)
    stale = ProvisioningRun.objects.filter(finished_at__isnull=True, started_at__lt=cutoff)
    return sum(_mark_died(run_id, now) for run_id in stale.values_list("pk", flat=True))
