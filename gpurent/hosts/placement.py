"""Which GPUs of which host a rental gets, and when they come back (decision 0360).

Lock order (docs/money.md, "GPU hosts"): the order (through `lock_rows`, the money lock order's first kind),
then the hosts of its GPU model by key, then the model's row last (`stock_sync`). No call to a host is made
while any of them is held.
"""

from __future__ import annotations

from django.db import transaction

from gpurent.core.locks import lock_rows
from gpurent.orders.enums import ProvisioningStatus
from gpurent.orders.errors import TransitionNotAllowed
from gpurent.orders.models import Order

from .enums import HostHealth, RentalState
from .errors import NoHostFree
from .models import GpuAllocation, GpuHost, HostRental
from .stock import free_gpus, stock_sync

__all__ = ["allocation_make", "allocation_release", "rental_username"]


def rental_username(order: Order) -> str:
    """The rental's account on its host: "r" and the order's reference, lower case, without dashes
    (`R-7KQ3-M9XA` → `r7kq3m9xa`): unique, and what the host agent accepts (`^r[a-z0-9]{4,30}$`)."""
    return "r" + order.ref.removeprefix("R-").replace("-", "").lower()


def allocation_make(rental: HostRental) -> HostRental:
    """Give `rental` the GPUs its order needs (lots × cards per lot) on one healthy, non-drained host of its
    model: the host with the fewest free GPUs that still fits (big blocks stay free for big orders), its
    lowest free indices. Under the hosts' row locks, so two rentals paid at once never get the same GPU (the
    unique (host, index) of `GpuAllocation` backs it). Does nothing when the rental already has its GPUs.

    Raises:
        NoHostFree: no such host has enough free GPUs now.
        TransitionNotAllowed: the rental is no longer pending or its order no longer preparing (checked under
            the locks: a rental revoked meanwhile never gets GPUs).
    """
    with transaction.atomic():
        lock_rows((Order, [rental.order_id]))
        order = Order.objects.select_related("gpu").get(pk=rental.order_id)
        rental = HostRental.objects.select_for_update(of=("self",)).select_related("host").get(pk=rental.pk)
        if rental.host is not None:
            return rental
        if rental.state != RentalState.PENDING or order.provisioning_status != ProvisioningStatus.PREPARING:
            raise TransitionNotAllowed(
                f"rental {rental.username} is {rental.state}, its order {order.provisioning_status}"
            )
        needed = order.lots * order.gpu.cards_per_lot
        # The hosts locked first; their allocations read after (made only under these locks).
        hosts = list(
            GpuHost.objects.select_for_update()
            .filter(gpu_id=order.gpu_id)
            .order_by("pk")
            .prefetch_related("allocations")
        )
        fitting = [
            (len(free), host.pk, host, free)
            for host in hosts
            if host.health == HostHealth.HEALTHY and not host.drained and len(free := free_gpus(host)) >= needed
        ]
        if not fitting:
            raise NoHostFree(detail=f"order {order.ref}: no host of {order.gpu.slug} has {needed} free GPUs")
        _count, _pk, host, free = min(fitting)
        indices = free[:needed]
        GpuAllocation.objects.bulk_create([GpuAllocation(host=host, index=index, rental=rental) for index in indices])
        rental.host, rental.gpu_indices = host, indices
        rental.save(update_fields=["host", "gpu_indices", "updated_at"])
        Order.objects.filter(pk=order.pk).update(lots_held_by_host=True)
        stock_sync(order.gpu_id)
    return rental


def allocation_release(rental: HostRental) -> None:
    """The rental's access is revoked on its host: its GPUs return to stock (idempotent)."""
    with transaction.atomic():
        lock_rows((Order, [rental.order_id]))
        order = Order.objects.get(pk=rental.order_id)
        GpuAllocation.objects.filter(rental=rental).delete()
        if order.lots_held_by_host:
            Order.objects.filter(pk=order.pk).update(lots_held_by_host=False)
        stock_sync(order.gpu_id)
