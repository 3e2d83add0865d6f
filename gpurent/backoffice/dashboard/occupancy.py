"""GPUs rented per model over time (occupancy), and their share of the model's fleet (utilisation).

A rental occupies its cards from the moment its term starts (access ready) to the moment it ends (its term end,
moved by paid extensions). Summing every rental over every day would read each rental once per day; instead
the database groups the moments terms start and end by model and day (two GROUP BY queries, read through the
indexes on `term_starts_at` and `term_ends_at`) and counts what ran at the period's start (in `orders_now`, one
pass over the orders that also counts the fleet and the provisioning queue), and the days are then walked in
order, one running sum per model: the cost is the number of rentals that start or end in the period, whatever
their length.

Card-seconds are exact to the second: a rental that starts at 18:00 adds its cards × 6 h to that day. The shop
keeps no history of its fleet, so utilisation divides by today's fleet (free stock + reserved + rented cards).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from django.db.models import Count, DateField, F, IntegerField, Q, QuerySet, Sum, Value
from django.db.models.functions import ExtractHour, ExtractMinute, ExtractSecond, Trunc
from django.utils import timezone

from gpurent.catalog.models import GpuModel
from gpurent.orders.enums import PaymentStatus, ProvisioningStatus
from gpurent.orders.models import Order

from .periods import Period

__all__ = ["ModelOccupancy", "OrdersNow", "occupancy_by_model", "orders_now"]

DAY_SECONDS = 86_400
# Orders that hold cards of the fleet today: reserved (unpaid, within the deadline) or paid and not over.
_HOLDING = Q(payment_status=PaymentStatus.AWAITING_PAYMENT) | Q(
    payment_status=PaymentStatus.PAID,
    provisioning_status__in=[
        ProvisioningStatus.NOT_STARTED,
        ProvisioningStatus.PREPARING,
        ProvisioningStatus.READY,
    ],
)


@dataclass(frozen=True, slots=True)
class ModelOccupancy:
    """One GPU model over the period: card-seconds rented in each bucket, and the size of its fleet today."""

    gpu_id: int
    name: str
    card_seconds: tuple[int, ...]
    fleet_cards: int

    def average_cards(self, period: Period, index: int) -> Decimal:
        """Cards rented on average over bucket `index` (to a tenth)."""
        return (Decimal(self.card_seconds[index]) / period.bucket_seconds(index)).quantize(Decimal("0.1"))

    def average_over(self, period: Period) -> Decimal:
        """Cards rented on average over the whole period (to a tenth)."""
        whole = sum(period.bucket_seconds(index) for index in range(len(period.buckets)))
        return (Decimal(sum(self.card_seconds)) / whole).quantize(Decimal("0.1"))

    def utilisation(self, period: Period) -> Decimal | None:
        """The share of today's fleet rented over the whole period, in percent (None: no fleet)."""
        if self.fleet_cards == 0:
            return None
        whole = sum(period.bucket_seconds(index) for index in range(len(period.buckets)))
        return (Decimal(100 * sum(self.card_seconds)) / (self.fleet_cards * whole)).quantize(Decimal("0.1"))


def _rentals() -> QuerySet[Order]:
    return Order.objects.filter(extends__isnull=True, term_starts_at__isnull=False)


def _second_of_day(field: str) -> F:
    return ExtractHour(field) * 3600 + ExtractMinute(field) * 60 + ExtractSecond(field)  # type: ignore[return-value]


def _moments(field: str, period: Period) -> dict[tuple[int, date], tuple[int, int]]:
    """(model, day) → (cards, cards × seconds left in the day after the moment), for the terms that start (or
    end) in the period. An end is counted only after the period's start: one at the start itself ran no second
    of it and is not in the opening count either."""
    after = f"{field}__gte" if field == "term_starts_at" else f"{field}__gt"
    rows = (
        _rentals()
        .filter(**{after: period.start, f"{field}__lt": period.end})
        .values("gpu_id", day=Trunc(field, "day", output_field=DateField()))
        .annotate(
            moved=Sum("cards"),
            rest=Sum(F("cards") * (Value(DAY_SECONDS) - _second_of_day(field)), output_field=IntegerField()),
        )
        .order_by()
    )
    return {(row["gpu_id"], row["day"]): (int(row["moved"]), int(row["rest"])) for row in rows}


@dataclass(frozen=True, slots=True)
class OrdersNow:
    """What one pass over the orders says, per GPU model: the cards orders hold today (reserved or rented: the
    fleet is these and the free stock), the cards rented when the period began, and how many paid rentals wait
    for a machine (the provisioning desk's queue, shown with the open work)."""

    held: dict[int, int]
    running: dict[int, int]
    waiting: int


def orders_now(period: Period) -> OrdersNow:
    """One GROUP BY over the orders with a filtered SUM or COUNT per figure (a CASE on SQLite)."""
    rows = (
        Order.objects.filter(extends__isnull=True)
        .values("gpu_id")
        .annotate(
            held=Sum("cards", filter=_HOLDING),
            running=Sum("cards", filter=Q(term_starts_at__lt=period.start, term_ends_at__gt=period.start)),
            # As the provisioning desk counts them (an extension needs no machine: it moves its rental's end).
            waiting=Count(
                "pk",
                filter=Q(
                    payment_status=PaymentStatus.PAID,
                    provisioning_status__in=[ProvisioningStatus.NOT_STARTED, ProvisioningStatus.PREPARING],
                ),
            ),
        )
        .order_by()
    )
    held, running, waiting = {}, {}, 0
    for row in rows:
        held[row["gpu_id"]], running[row["gpu_id"]] = int(row["held"] or 0), int(row["running"] or 0)
        waiting += row["waiting"]
    return OrdersNow(held=held, running=running, waiting=waiting)


def occupancy_by_model(period: Period, orders: OrdersNow | None = None) -> list[ModelOccupancy]:
    """Every GPU model of the catalog, in catalog order, with its card-seconds rented per bucket (`orders`: the
    pass over the orders when the caller has made it already)."""
    orders = orders or orders_now(period)
    starts, ends = _moments("term_starts_at", period), _moments("term_ends_at", period)
    first, today = period.buckets[0], timezone.localdate(period.end)
    days = [first + timedelta(days=n) for n in range((today - first).days + 1)]
    per_bucket = 7 if period.bucket == "week" else 1
    result = []
    models = GpuModel.objects.order_by("position", "name").values_list("pk", "name", "stock_lots", "cards_per_lot")
    for gpu_id, name, stock, per_lot in models:
        fleet = stock * per_lot + orders.held.get(gpu_id, 0)
        active = orders.running.get(gpu_id, 0)
        buckets = [0] * len(period.buckets)
        for number, day in enumerate(days):
            midnight = timezone.make_aware(datetime.combine(day, time.min))
            length = int((min(midnight + timedelta(days=1), period.end) - midnight).total_seconds())
            # Today is cut at `period.end`: each moment's "rest of the day" ends there, not at midnight.
            short = DAY_SECONDS - length
            started, start_rest = starts.get((gpu_id, day), (0, 0))
            ended, end_rest = ends.get((gpu_id, day), (0, 0))
            seconds = active * length + (start_rest - started * short) - (end_rest - ended * short)
            buckets[number // per_bucket] += seconds
            active += started - ended
        result.append(ModelOccupancy(gpu_id=gpu_id, name=name, card_seconds=tuple(buckets), fleet_cards=fleet))
    return result
