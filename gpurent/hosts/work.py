"""The hosts' share of the periodic sweep: everything owed to a host, done by the background worker.

`hosts_work_enqueue` (from `manage.py sweep`, every minute) queues one `hosts_work_task` when any host is
registered; the task checks the hosts not checked for `HOSTS_CHECK_SECONDS` and then does every step that is
due: accounts to make (retries), accounts to revoke (terms that ended, provisioning that failed), expiries to
move (paid extensions), customers' stop and restart requests, and home directories past the retention
period to wipe. Each step is claimed before its agent call, so two sweeps on two machines do it once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone
from django_tasks import task
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from gpurent.orders.enums import ProvisioningStatus
from gpurent.orders.models import MachineRequest

from .enums import HostHealth, RentalState
from .lifecycle import machine_request_carry, rental_create, rental_refresh, rental_revoke, rental_wipe
from .models import GpuHost, HostRental
from .registry import host_check
from .stock import stock_sync

__all__ = ["hosts_check_task", "hosts_work", "hosts_work_enqueue", "hosts_work_task"]

logger = logging.getLogger(__name__)

# Orders whose account must go: the term is over, or provisioning failed or was given up.
_OVER = [ProvisioningStatus.ENDED, ProvisioningStatus.FAILED]


def hosts_work(*, now: datetime | None = None) -> dict[str, int]:
    """Do every host step that is due at `now`; returns how many of each were tried."""
    now = now or timezone.now()
    stale = Q(checked_at__isnull=True) | Q(checked_at__lte=now - timedelta(seconds=settings.HOSTS_CHECK_SECONDS))
    checked = 0
    for host in GpuHost.objects.filter(stale).exclude(health=HostHealth.KEY_CHANGED):
        host_check(host)
        checked += 1
    due = Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now)
    # Accounts whose order is over are revoked, whatever state their making reached; one whose step a worker
    # has claimed (its lease runs) is left to that worker and taken by a later round.
    HostRental.objects.filter(
        due, state__in=[RentalState.PENDING, RentalState.ACTIVE], order__provisioning_status__in=_OVER
    ).update(state=RentalState.REVOKING, attempts=0, next_attempt_at=now)
    for gpu_id in set(GpuHost.objects.values_list("gpu_id", flat=True)):
        stock_sync(gpu_id)  # counted again, in case it was held at zero while hosts were down (stock.py)
    counts = {"hosts checked": checked}
    counts["accounts made"] = _each(HostRental.objects.filter(due, state=RentalState.PENDING), rental_create, now)
    counts["accounts revoked"] = _each(HostRental.objects.filter(due, state=RentalState.REVOKING), rental_revoke, now)
    # Active accounts marked to be made right again: a paid extension (`HostProvisioner.extended`), a host that
    # booted again (`registry.host_check`).
    marked = HostRental.objects.filter(state=RentalState.ACTIVE, next_attempt_at__lte=now)
    counts["accounts refreshed"] = _each(marked, rental_refresh, now)
    wipe_before = now - timedelta(days=settings.HOSTS_WIPE_AFTER_DAYS)
    counts["accounts wiped"] = _each(
        HostRental.objects.filter(due, state=RentalState.REVOKED, revoked_at__lte=wipe_before), rental_wipe, now
    )
    requests = MachineRequest.objects.filter(
        handled_at__isnull=True,
        order__host_rental__state=RentalState.ACTIVE,
        order__host_rental__host__health=HostHealth.HEALTHY,
    )
    batch = list(requests[:100])
    for request in batch:
        machine_request_carry(request)
    counts["machine requests"] = len(batch)
    return counts


def _each(rentals: QuerySet[HostRental], step: Callable[..., None], now: datetime) -> int:
    """Run `step` on the first 100 rentals (the next sweep takes the rest); returns how many."""
    batch = list(rentals.select_related("host").order_by("next_attempt_at", "pk")[:100])
    for rental in batch:
        try:
            step(rental, now=now)
        except Exception:  # one rental's surprise must not stop the others' steps; it is retried next round
            logger.exception("host work: %s of %s failed", step.__name__, rental.username)
    return len(batch)


@task()
def hosts_check_task(host_ids: list[int]) -> None:
    """Read these hosts' inventories again (the back office's "Check now", run by the worker: no SSH call in a
    request)."""
    for host in GpuHost.objects.filter(pk__in=host_ids):
        host_check(host)


@task()
def hosts_work_task(now: str) -> None:
    """One round of host work at the sweep's clock (`now`, ISO 8601)."""
    hosts_work(now=datetime.fromisoformat(now))


def hosts_work_enqueue(*, now: datetime) -> int:
    """Queue one round of host work at `now` when any host is registered and no round is waiting or running
    already (a slow round is not joined by another each minute); returns 1 when queued."""
    pending = DBTaskResult.objects.filter(
        task_path=hosts_work_task.module_path, status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING]
    )
    if not GpuHost.objects.exists() or pending.exists():
        return 0
    hosts_work_task.enqueue(now.isoformat())
    return 1
