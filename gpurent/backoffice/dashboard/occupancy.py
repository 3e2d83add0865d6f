"""GPUs rented per model over time (occupancy), and their share of the model's fleet (utilisation).

A rental occupies its cards from the moment its term starts (access ready) to the moment it ends (its term end,
moved by paid extensions). Summing every rental over every day would read each rental once per day; instead
the database groups the moments terms start and end by model and day (two GROUP BY queries) and counts what ran
at the period's start (a third), and the days are then walked in order, one running sum per model: the cost is
the number of rentals that start or end in the period, whatever their length.

Card-seconds are exact to the second: a rental that starts at 18:00 adds its cards × 6 h to that day. The shop
keeps no history of its fleet, so utilisation divides by today's fleet (free stock + reserved + rented cards).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from django.db.models import DateField, F, IntegerField, Q, QuerySet, Sum, Value
from django.db.models.functions import ExtractHour, ExtractMinute, ExtractSecond, Trunc
from django.utils import timezone

from gpurent.catalog.models import GpuModel
from gpurent.orders.enums import PaymentStatus, ProvisioningStatus
from gpurent.orders.models import Order

from .periods import Period

__all__ = ["ModelOccupancy", "occupancy_by_model"]

DAY_SECONDS = 86_400
# Orders that hold cards of the fleet today: reserved (unpaid, within the deadline) or paid and not over.
_HOLDING = Q(extends__isnull=True) & (
    Q(payment_status=PaymentStatus.AWAITING_PAYMENT)
    | Q(
        payment_status=PaymentStatus.PAID,
        provisioning_status__in=[
            ProvisioningStatus.NOT_STARTED,
            ProvisioningStatus.PREPARING,
            ProvisioningStatus.READY,
        ],
    )
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


def _fleet() -> list[tuple[int, str, int]]:
    """(model id, name, cards today) of every model, in catalog order: its free stock and the cards orders hold."""
    held = dict(
        Order.objects.filter(_HOLDING).values("gpu_id").annotate(held=Sum("cards")).values_list("gpu_id", "held")
    )
    models = GpuModel.objects.order_by("position", "name").values_list("pk", "name", "stock_lots", "cards_per_lot")
    return [(pk, name, stock * per_lot + int(held.get(pk, 0))) for pk, name, stock, per_lot in models]


def occupancy_by_model(period: Period) -> list[ModelOccupancy]:
    """Every GPU model of the catalog, in catalog order, with its card-seconds rented per bucket."""
    running = dict(
        _rentals()
        .filter(term_starts_at__lt=period.start, term_ends_at__gt=period.start)
        .values("gpu_id")
        .annotate(rented=Sum("cards"))
        .values_list("gpu_id", "rented")
        .order_by()
    )
    starts, ends = _moments("term_starts_at", period), _moments("term_ends_at", period)
    first, today = period.buckets[0], timezone.localdate(period.end)
    days = [first + timedelta(days=n) for n in range((today - first).days + 1)]
    per_bucket = 7 if period.bucket == "week" else 1
    result = []
    for gpu_id, name, fleet in _fleet():
        active = int(running.get(gpu_id, 0))
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
