"""The stock of a GPU model that has registered hosts: counted from the GPUs that exist (decision 0360).

For such a model `GpuModel.stock_lots` stays the counter every order reserves from (the conditional UPDATE of
`catalog.services`), but whenever what it counts changes here (a host added, drained, unreachable or back, an
allocation made or released) it is set again to

    free lots on healthy, non-drained hosts − lots of orders that hold stock without GPUs yet

where a host's free lots are its free offered GPUs ÷ cards per lot (a lot never spans two hosts), and the
orders holding stock without GPUs are those awaiting payment (their reservation) and those paid, not over and
not given GPUs of a host (`lots_held_by_host` false: not yet placed, or given access by hand at the desk).
The rest of the time the counter moves with orders as it always did and stays equal to that count: a
reservation takes lots, an expiry, cancellation or end gives them back, an allocation moves an order from the
second term into the first, and an order whose GPUs are held on a host gives nothing back until
`allocation_release`. One exception: the count is never set below zero (while hosts are down and orders still
hold lots), so a release then leaves the counter above it; every round of host work (`work.py`, each minute)
sets it again.

A model without hosts keeps the stock operators type.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q, Sum

from gpurent.catalog.models import GpuModel
from gpurent.orders.enums import PaymentStatus, ProvisioningStatus
from gpurent.orders.models import Order

from .enums import HostHealth
from .models import GpuHost

__all__ = ["free_gpus", "host_managed", "stock_sync"]


def host_managed(gpu_id: int) -> bool:
    """Whether the model's stock and provisioning are the hosts' (it has at least one registered host)."""
    return GpuHost.objects.filter(gpu_id=gpu_id).exists()


def free_gpus(host: GpuHost) -> list[int]:
    """The offered GPU indices of `host` that its last inventory reports and no rental holds, lowest first (a
    card that fell off the bus is neither sold nor placed until the host reports it again). Lists of hosts
    prefetch `allocations`, so this costs no query per host."""
    reported = {card.get("index") for card in host.inventory.get("gpus", []) if isinstance(card, dict)}
    held = {allocation.index for allocation in host.allocations.all()}
    return sorted(index for index in set(host.gpu_indices) & reported if index not in held)


def stock_sync(gpu_id: int) -> int | None:
    """Set the stock of a host-managed model from its hosts and orders; returns it (None: not host-managed).

    Locks the model's row first (the row every reservation updates, so no order is placed in between) and
    counts after the lock; call it last in a transaction, after the hosts and allocations it changed
    (docs/money.md, "GPU hosts").
    """
    with transaction.atomic():
        gpu = GpuModel.objects.select_for_update().filter(pk=gpu_id).first()
        if gpu is None or not host_managed(gpu_id):
            return None
        hosts = GpuHost.objects.filter(gpu_id=gpu_id, health=HostHealth.HEALTHY, drained=False).prefetch_related(
            "allocations"
        )
        free = sum(len(free_gpus(host)) // gpu.cards_per_lot for host in hosts)
        waiting = Q(payment_status=PaymentStatus.AWAITING_PAYMENT) | Q(
            payment_status=PaymentStatus.PAID,
            provisioning_status__in=[
                ProvisioningStatus.NOT_STARTED,
                ProvisioningStatus.PREPARING,
                ProvisioningStatus.READY,  # given access by hand at the desk: its lots stay out until it ends
            ],
        )
        held = (
            Order.objects.filter(waiting, gpu_id=gpu_id, extends__isnull=True, lots_held_by_host=False).aggregate(
                lots=Sum("lots")
            )["lots"]
            or 0
        )
        stock = max(0, free - held)
        if stock != gpu.stock_lots:
            GpuModel.objects.filter(pk=gpu_id).update(stock_lots=stock)
        return stock
