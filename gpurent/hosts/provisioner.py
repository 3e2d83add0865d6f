"""The provisioner of GPU models with registered hosts (`HOSTS_PROVISIONER`, found by
`orders.provisioning.provisioner_for`): paid orders get an account on a host with no person involved."""

from __future__ import annotations

from django.utils import timezone

from gpurent.orders.models import MachineRequest, Order

from .enums import RentalState
from .lifecycle import machine_request_carry, rental_create, rental_open, rental_refresh
from .models import HostRental
from .stock import host_managed

__all__ = ["HostProvisioner"]


class HostProvisioner:
    """`orders.provisioning.Provisioner` for host-managed GPU models (decision 0360)."""

    def handles(self, order: Order) -> bool:
        """Whether `order`'s GPU model has registered hosts."""
        return host_managed(order.gpu_id)

    def start(self, order: Order) -> None:
        rental = rental_open(order)
        if rental is not None:
            rental_create(rental)

    def resume(self, order: Order) -> None:
        # The worker died after the order became `preparing`: make its account now, once more at most.
        rental = HostRental.objects.select_related("host").filter(order=order).first() or rental_open(order)
        if rental is not None and rental.state == RentalState.PENDING:
            rental_create(rental)

    def extended(self, rental: Order) -> None:
        account = HostRental.objects.select_related("host").filter(order=rental, state=RentalState.ACTIVE).first()
        if account is not None:
            # Marked first: if this call fails, or the worker dies, the sweep's host work moves it later.
            HostRental.objects.filter(pk=account.pk, next_attempt_at__isnull=True).update(
                next_attempt_at=timezone.now()
            )
            account.refresh_from_db()
            rental_refresh(account)

    def machine_request(self, request: MachineRequest) -> None:
        machine_request_carry(request)
