"""Rows for the tests and the benchmark of `/metrics`, written in bulk (used by tests and bench/ only).

They are written straight to the tables, in the states the metrics count, without the services' side effects
(ledger transfers, e-mails): what is measured here is the counting, not the flows that produce the rows.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal

from django.utils import timezone

from gpurent.accounts.models import User
from gpurent.catalog.models import GpuModel
from gpurent.orders.enums import PaymentStatus, ProvisioningStatus
from gpurent.orders.models import Order
from gpurent.payments.models import IntentStatus, PaymentIntent

__all__ = ["intents_bulk", "orders_bulk"]


def orders_bulk(
    *,
    owner: User,
    gpu: GpuModel,
    count: int,
    payment_status: str = PaymentStatus.AWAITING_PAYMENT,
    provisioning_status: str = ProvisioningStatus.NOT_STARTED,
    lots: int = 1,
    prefix: str = "M",
    batch_size: int = 5_000,
) -> list[Order]:
    """`count` orders of `lots` lots of `gpu` in the given states, with references `<prefix>-00000001`…"""
    now = timezone.now()
    orders = [
        Order(
            ref=f"{prefix}-{number:08d}",
            owner=owner,
            gpu=gpu,
            term_days=3,
            lots=lots,
            cards=lots * gpu.cards_per_lot,
            environment="ubuntu",
            lot_price_cents=gpu.price_3d_cents,
            total_cents=gpu.price_3d_cents * lots,
            contact_first_name="M",
            contact_last_name="M",
            contact_email="metrics@example.com",
            payment_status=payment_status,
            provisioning_status=provisioning_status,
            reserved_until=now,
            paid_at=now if payment_status == PaymentStatus.PAID else None,
        )
        for number in range(1, count + 1)
    ]
    return Order.objects.bulk_create(orders, batch_size=batch_size)


def intents_bulk(
    *,
    orders: list[Order],
    asset: str,
    network: str,
    status: str = IntentStatus.AWAITING_PAYMENT,
    confirmed_after: timedelta | None = None,
    created_at: datetime | None = None,
    batch_size: int = 5_000,
) -> list[PaymentIntent]:
    """One intent per order in `status`; with `confirmed_after`, verified that long after `created_at`."""
    created = created_at or timezone.now() - timedelta(days=1)
    intents = [
        PaymentIntent(
            owner_id=order.owner_id,
            order=order,
            asset=asset,
            network=network,
            amount_units=1_000,
            rate_usd=Decimal("1"),
            usd_cents=order.total_cents,
            address="TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
            expires_at=created + timedelta(minutes=30),
            status=status,
            verified_at=created + confirmed_after if confirmed_after is not None else None,
        )
        for order in orders
    ]
    made = PaymentIntent.objects.bulk_create(intents, batch_size=batch_size)
    # `created_at` is set to now on insert (auto_now_add): move it to the moment the durations count from.
    for start in range(0, len(made), batch_size):
        batch = [intent.pk for intent in made[start : start + batch_size]]
        PaymentIntent.objects.filter(pk__in=batch).update(created_at=created)
    return made
